// Conditional requests (RFC 9110 §13) for GET and HEAD: If-None-Match wins
// over If-Modified-Since, and If-Range decides whether a Range still applies.

/** Longest If-None-Match header looked at; a longer one is treated as absent. */
export const MAX_IF_NONE_MATCH = 4096;

/**
 * A weak validator from a file's size and modification time.
 *
 * @example
 * fileEtag(4096, 1700000000000); // 'W/"1000-18bcfe56800"'
 */
export function fileEtag(size: number, mtimeMs: number): string {
  const time = Number.isFinite(mtimeMs) ? Math.floor(mtimeMs).toString(16) : '0';
  return `W/"${size.toString(16)}-${time}"`;
}

/** Whether an `If-None-Match` header matches `etag` (weak comparison; `*` matches anything). */
export function etagMatches(header: string, etag: string): boolean {
  if (header === etag) return true; // what a client sends back most of the time
  if (header.length > MAX_IF_NONE_MATCH) return false;
  const bare = opaque(etag);
  for (const part of header.split(',')) {
    const tag = part.trim();
    if (tag === '*') return true;
    if (opaque(tag) === bare) return true;
  }
  return false;
}

function opaque(tag: string): string {
  return tag.startsWith('W/') ? tag.slice(2) : tag;
}

/** An HTTP date, or NaN for anything that does not parse as one (bogus dates are ignored). */
export function parseHttpDate(value: string | null | undefined): number {
  if (value === null || value === undefined || value.length > 64 || !/^[A-Za-z]{3},? [\w :-]+$/.test(value.trim())) return Number.NaN;
  return Date.parse(value);
}

/**
 * Whether the client's copy is fresh: `If-None-Match` when sent (weak match), else
 * `If-Modified-Since` against the modification time at one-second precision.
 *
 * @example
 * const h = new Headers({ 'if-none-match': 'W/"1"' });
 * notModified((n) => h.get(n), 'W/"1"', Date.now()); // true
 */
export function notModified(header: (name: string) => string | null | undefined, etag: string | undefined, mtimeMs: number | undefined): boolean {
  const inm = header('if-none-match');
  if (inm !== null && inm !== undefined) return etag !== undefined && etagMatches(inm, etag);
  if (mtimeMs === undefined || !Number.isFinite(mtimeMs)) return false;
  const since = parseHttpDate(header('if-modified-since'));
  if (Number.isNaN(since)) return false;
  return Math.floor(mtimeMs / 1000) * 1000 <= since;
}

/**
 * Whether a Range request may be answered with part of the file: true without
 * `If-Range`; with one, only when it equals the strong validator or the exact
 * Last-Modified date (weak ETags never satisfy If-Range).
 */
export function rangeApplies(ifRange: string | null | undefined, etag: string | undefined, lastModified: string | undefined): boolean {
  if (ifRange === null || ifRange === undefined) return true;
  const v = ifRange.trim();
  if (v.startsWith('"')) return etag !== undefined && !etag.startsWith('W/') && v === etag;
  if (v.startsWith('W/')) return false;
  return lastModified !== undefined && v === lastModified;
}

const dates = new Map<number, string>();
/** `mtimeMs` as an HTTP date; the few distinct ones a site has are remembered (bounded). */
export function httpDate(mtimeMs: number): string {
  let s = dates.get(mtimeMs);
  if (s === undefined) {
    if (dates.size >= 1024) dates.clear();
    s = new Date(mtimeMs).toUTCString();
    dates.set(mtimeMs, s);
  }
  return s;
}
