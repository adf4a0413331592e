// Range requests (RFC 9110 §14): single byte ranges only. A request for
// several ranges gets the whole file (200), which the RFC allows: answering
// multipart/byteranges would let a client ask for the same bytes many times over.

/** Longest Range header looked at; anything longer is ignored (whole file). */
export const MAX_RANGE_HEADER = 256;

/** What a Range header asks of a file of a given size. */
export type RangeResult =
  /** No usable range: answer the whole file (no header, malformed, not bytes, several ranges). */
  | { kind: 'full' }
  /** One satisfiable range, inclusive byte offsets: answer 206. */
  | { kind: 'partial'; start: number; end: number }
  /** A well-formed range that the file cannot satisfy: answer 416. */
  | { kind: 'unsatisfiable' };

const FULL: RangeResult = { kind: 'full' };
const UNSATISFIABLE: RangeResult = { kind: 'unsatisfiable' };
const SPEC = /^(\d*)-(\d*)$/;

/**
 * Parse a `Range` header against a file size.
 *
 * @example
 * parseRange('bytes=0-9', 100); // { kind: 'partial', start: 0, end: 9 }
 * parseRange('bytes=-10', 100); // { kind: 'partial', start: 90, end: 99 }
 * parseRange('bytes=200-', 100); // { kind: 'unsatisfiable' }
 * parseRange('bytes=0-1,5-6', 100); // { kind: 'full' }
 */
export function parseRange(header: string | null | undefined, size: number): RangeResult {
  if (header === null || header === undefined || header.length > MAX_RANGE_HEADER) return FULL;
  const eq = header.indexOf('=');
  if (eq === -1 || header.slice(0, eq).trim().toLowerCase() !== 'bytes') return FULL;
  const specs = header.slice(eq + 1).split(',');
  if (specs.length !== 1) return FULL;
  const m = SPEC.exec(specs[0].trim());
  if (m === null) return FULL;
  const [, first, last] = m;
  if (first === '' && last === '') return FULL;
  // Digits only, but possibly many of them: anything past 2^53 is "larger than any file".
  if (first === '') {
    const suffix = toNumber(last);
    if (suffix === 0 || size === 0) return UNSATISFIABLE;
    return { kind: 'partial', start: Math.max(0, size - suffix), end: size - 1 };
  }
  const start = toNumber(first);
  const end = last === '' ? size - 1 : toNumber(last);
  if (last !== '' && end < start) return FULL; // invalid: ignored as RFC 9110 says
  if (start >= size) return UNSATISFIABLE;
  return { kind: 'partial', start, end: Math.min(end, size - 1) };
}

function toNumber(digits: string): number {
  return digits.length > 15 ? Number.MAX_SAFE_INTEGER : Number(digits);
}
