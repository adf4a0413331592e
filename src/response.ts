/** Response headers kept as a plain object until a real `Headers` is needed. Names are lower-case. */
export type HeaderRecord = Record<string, string | string[]>;

/**
 * A response a helper built (`c.json`, `c.text`, …) for the Node adapter, not
 * yet turned into a `Response`: the adapter writes it straight to the socket.
 * Everywhere else helpers build a real `Response`.
 */
export class LightResponse {
  #headers: Headers | undefined;

  constructor(
    readonly payload: string | Uint8Array | null,
    readonly status: number,
    readonly record: HeaderRecord,
  ) {}

  get ok(): boolean {
    return this.status >= 200 && this.status < 300;
  }

  /** Like `Response.headers`; after this is read, the adapter writes these headers instead of `record`. */
  get headers(): Headers {
    return (this.#headers ??= new Headers(toHeadersInit(this.record)));
  }

  get touchedHeaders(): Headers | undefined {
    return this.#headers;
  }

  toResponse(): Response {
    return new Response(this.payload as BodyInit | null, {
      status: this.status,
      headers: this.#headers ?? toHeadersInit(this.record),
    });
  }
}

export function toHeadersInit(headers: HeaderRecord): HeadersInit {
  let multi = false;
  for (const k in headers) if (typeof headers[k] !== 'string') multi = true;
  if (!multi) return headers as Record<string, string>;
  const pairs: [string, string][] = [];
  for (const k in headers) {
    const v = headers[k];
    if (typeof v === 'string') pairs.push([k, v]);
    else for (const one of v) pairs.push([k, one]);
  }
  return pairs;
}

/** Add header values to a real Response (its own values win), copying it first if its headers are immutable. */
export function withHeaders(res: Response, extra: HeaderRecord): Response {
  let out = res;
  try {
    apply(out.headers, extra);
  } catch {
    out = new Response(res.body, res);
    apply(out.headers, extra);
  }
  return out;
}

function apply(target: Headers, extra: HeaderRecord): void {
  for (const k in extra) {
    const v = extra[k];
    if (typeof v === 'string') {
      if (!target.has(k)) target.set(k, v);
    } else for (const one of v) target.append(k, one);
  }
}
