// One request header on Deno without building the request's whole Headers.
//
// A request Deno.serve (or `deno serve`) made keeps an inner request under a symbol property,
// whose header(name) answers one header through one lookup in Deno's own header map: the same
// answer as `request.headers.get(name)` (case-insensitive, repeated lines joined with ", ",
// null when absent), without the first `headers` read that copies every header into a Headers
// object. What it saves, measured on Deno 2.9: about 0.12 µs a call against 0.4 µs for the op
// behind the header list alone; Rove's `/test` in the bench went from 8.2 to 6.7 µs of CPU per
// request (3 rounds × 3 s). These are Deno's internals, not its API: they are found by shape
// once and used only where they are there, and everything else reads `request.headers`.
// test/adapters/deno-header.test.ts fails when a Deno release no longer has them.

/** A Request, or anything with its `headers`. */
type HeaderSource = { readonly headers: Headers };

interface InnerRequest {
  header?: (name: string) => string | null;
}

let innerKey: symbol | null | undefined;
let cacheKey: symbol | null = null;

/**
 * The inner request's key, or null when Requests here have no inner request or headers cache
 * (then `request.headers` answers). Decided once: every Request of the runtime has the same
 * symbols. Whether one request's inner request can look a header up is checked per call, so a
 * Request built in code (whose inner request is a plain object) costs one typeof before it
 * falls back, not a search of its symbols.
 */
function keysOf(request: HeaderSource): symbol | null {
  const symbols = Object.getOwnPropertySymbols(request);
  const inner = symbols.find((s) => s.description === 'request');
  cacheKey = symbols.find((s) => s.description === 'headers cache') ?? null;
  return inner === undefined || cacheKey === null ? null : inner;
}

/**
 * Whether `denoHeader` can answer for `request` through Deno's own lookup rather than its
 * `Headers`: true for a request Deno's server made whose headers nobody read yet.
 */
export function usesInnerLookup(request: HeaderSource): boolean {
  if (innerKey === undefined) innerKey = keysOf(request);
  if (innerKey == null) return false;
  const fields = request as unknown as Record<symbol, unknown>;
  return fields[cacheKey!] === undefined && typeof (fields[innerKey] as InnerRequest | undefined)?.header === 'function';
}

/**
 * `request.headers.get(name)`, through Deno's one-header lookup when the request came from
 * Deno's server and its Headers were not built yet (once built, they may have been changed:
 * they answer). Falls back to `request.headers` for anything else, and when the lookup throws
 * (a request Deno already closed).
 *
 * @example
 * const host = denoHeader(request, 'host');
 */
export function denoHeader(request: HeaderSource, name: string): string | null {
  if (innerKey === undefined) innerKey = keysOf(request);
  if (innerKey != null) {
    const fields = request as unknown as Record<symbol, unknown>;
    const inner = fields[innerKey] as InnerRequest | undefined;
    if (fields[cacheKey!] === undefined && typeof inner?.header === 'function') {
      try {
        return inner.header(name);
      } catch {
        // Closed: only the Headers object, if it was built, still knows.
      }
    }
  }
  return request.headers.get(name);
}
