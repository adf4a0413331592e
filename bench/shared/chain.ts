// The work done by the five /chain middleware layers, shared so that every
// framework does the same work; each app wires it in its own idiom.

export interface LogEntry {
  t: number;
  method: string;
  path: string;
  id: string;
}

/** Fixed-size in-memory log: the scenario measures the write, not disk I/O. */
export class RingLog {
  readonly #entries: (LogEntry | undefined)[];
  #next = 0;
  constructor(size = 1024) {
    this.#entries = new Array(size);
  }
  push(entry: LogEntry): void {
    this.#entries[this.#next] = entry;
    this.#next = (this.#next + 1) % this.#entries.length;
  }
}

/** Fixed-window counter per key; the limit is set high enough never to trip under load. */
export class RateLimiter {
  #windowStart = 0;
  readonly #counts = new Map<string, number>();
  constructor(
    readonly limit = 1e12,
    readonly windowMs = 60_000,
  ) {}
  allow(key: string, now: number): boolean {
    if (now - this.#windowStart >= this.windowMs) {
      this.#windowStart = now;
      this.#counts.clear();
    }
    const n = (this.#counts.get(key) ?? 0) + 1;
    this.#counts.set(key, n);
    return n <= this.limit;
  }
}

/** Decodes a JWT payload without checking the signature; null when malformed. */
export function decodeJwtPayload(authorization: string | null | undefined): Record<string, unknown> | null {
  if (!authorization?.startsWith('Bearer ')) return null;
  const token = authorization.slice(7);
  const first = token.indexOf('.');
  const second = token.indexOf('.', first + 1);
  if (first < 0 || second < 0) return null;
  try {
    const b64 = token
      .slice(first + 1, second)
      .replace(/-/g, '+')
      .replace(/_/g, '/');
    const bin = atob(b64);
    const bytes = new Uint8Array(bin.length);
    for (let i = 0; i < bin.length; i++) bytes[i] = bin.charCodeAt(i);
    const payload = JSON.parse(new TextDecoder().decode(bytes));
    return payload && typeof payload === 'object' ? payload : null;
  } catch {
    return null;
  }
}

export function requestId(incoming: string | null | undefined): string {
  return incoming || crypto.randomUUID();
}
