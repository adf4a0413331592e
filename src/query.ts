/**
 * One query parameter's first value, exactly as `new URLSearchParams(qs).get(name)` gives it
 * (`null` when absent), without building one: a handler that reads one or two parameters pays
 * for neither a URLSearchParams nor its entry list. Returns `undefined` for a query string with
 * an escape (`%`, `+`, a lone surrogate), which the caller then parses whole.
 */
export function queryValue(qs: string, name: string): string | null | undefined {
  if (ESCAPE.test(qs)) return undefined;
  for (const pair of qs.split('&')) {
    const eq = pair.indexOf('=');
    // URLSearchParams skips empty pairs (`a=1&&b`).
    if (pair !== '' && (eq === -1 ? pair : pair.slice(0, eq)) === name) return eq === -1 ? '' : pair.slice(eq + 1);
  }
  return null;
}

const ESCAPE = /[%+\uD800-\uDFFF]/;
