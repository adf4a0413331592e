/**
 * One query parameter's first value, found by scanning the query string,
 * exactly as `new URLSearchParams(qs).get(name)` would give it (`null` when
 * absent). Most lookups need no parsing of the rest: a handler that reads one
 * or two parameters pays for neither a URLSearchParams nor its entry list.
 * Returns `undefined` when the scan cannot be sure (an escaped key before the
 * match, or a value escape decodeURIComponent refuses); the caller then
 * parses the whole string.
 */
export function queryValue(qs: string, name: string): string | null | undefined {
  const length = qs.length;
  let start = 0;
  while (start < length) {
    let end = qs.indexOf('&', start);
    if (end === -1) end = length;
    let eq = qs.indexOf('=', start);
    if (eq === -1 || eq > end) eq = end;
    if (end > start) {
      // A key with an escape might decode to the name: only the full parse can tell.
      if (hasEscape(qs, start, eq)) return undefined;
      if (eq - start === name.length && qs.startsWith(name, start)) {
        return eq === end ? '' : decodeValue(qs.slice(eq + 1, end));
      }
    }
    start = end + 1;
  }
  return null;
}

const SURROGATE = /[\uD800-\uDFFF]/;

function hasEscape(s: string, from: number, to: number): boolean {
  for (let i = from; i < to; i++) {
    const c = s.charCodeAt(i);
    // %, + and lone surrogates (URLSearchParams turns those into U+FFFD)
    if (c === 37 || c === 43 || (c >= 0xd800 && c <= 0xdfff)) return true;
  }
  return false;
}

function decodeValue(raw: string): string | undefined {
  if (SURROGATE.test(raw)) return undefined;
  const plus = raw.indexOf('+') !== -1;
  if (!plus && raw.indexOf('%') === -1) return raw;
  const spaced = plus ? raw.replaceAll('+', ' ') : raw;
  try {
    return decodeURIComponent(spaced);
  } catch {
    // A lone % or bytes that are not UTF-8: URLSearchParams keeps or replaces them.
    return undefined;
  }
}
