// One request header on Deno without building the request's whole Headers.
//
// A request Deno.serve (or `deno serve`) made keeps an inner request under a symbol property,
// whose header(name) answers one header through one lookup in Deno's own header map: the same
// answer as `request.headers.get(name)` (case-insensitive, repeated lines joined with ", ",
// null when absent), without the first `headers` read that copies every header into a Headers
// object (figures in docs/design-notes.md). It is not public API, so it is found by shape once
// and used only where it is there; everything else reads `request.headers`.

/** A Request, or anything with its `headers`. */
type HeaderSource = { readonly headers: Headers };

interface InnerRequest {
  header?: (name: string) => string | null;
}

let innerKey: symbol | null | undefined;
let cacheKey: symbol | null = null;

/** The inner request's key (null: no usable lookup), or undefined when `request` cannot tell yet. */
function keysOf(request: HeaderSource): symbol | null | undefined {
  const symbols = Object.getOwnPropertySymbols(request);
  const inner = symbols.find((s) => s.description === 'request');
  if (inner === undefined) return null;
  const candidate = (request as unknown as Record<symbol, object | undefined>)[inner];
  // A Request built in code has a plain inner object: only a served one tells.
  if (candidate === undefined || Object.getPrototypeOf(candidate) === Object.prototype) return undefined;
  if (typeof (candidate as InnerRequest).header !== 'function') return null;
  cacheKey = symbols.find((s) => s.description === 'headers cache') ?? null;
  return cacheKey === null ? null : inner;
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
