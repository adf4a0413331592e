/**
 * The chain of requests no route answers (404, 405 and automatic OPTIONS), composed once when the
 * table compiles. Any path may come, so a middleware with a prefix scope is guarded: it runs only
 * when the request's decoded segments lie under its scope, and otherwise passes to the next layer.
 */
import type { ScopedMiddleware } from './app-table.ts';
import type { TrailingSlashRule } from './app-types.ts';
import { compose, type ErrorResponder, type Handler } from './compose.ts';
import type { Context } from './context.ts';
import { HttpError } from './errors.ts';
import { decodeSegments } from './path.ts';
import type { Router } from './router.ts';
import { startsWith } from './scope.ts';

/**
 * The chain for one compiled table: `scoped` is every middleware with its full scope, `end` the
 * handler that answers last. Callers refuse a path with malformed percent-encoding first.
 */
export function unmatchedChain(scoped: ScopedMiddleware[], end: Handler, onError: ErrorResponder): (c: Context<any, any>) => unknown {
  const layers = scoped.map(({ segments, tests, fn }): Handler => {
    if (!tests.length) return fn;
    // Plain segments, and a path without '%' (its segments are decoded already): a string test.
    const plain = segments.every((s) => s.kind === 'static') && `/${segments.map((s) => (s as { text: string }).text).join('/')}/`;
    return (c, next) => ((plain && !c.path.includes('%') ? `${c.path}/`.startsWith(plain) : startsWith(decodeSegments(c.path)!, tests)) ? fn(c, next) : next());
  });
  return compose([...layers, end], onError);
}

/**
 * What a request no route answers gets before a 404: when other methods have a route for the path,
 * 204 with `Allow` for OPTIONS and 405 with `Allow` for anything else; else what the app's
 * trailing-slash rule gives. Undefined leaves the 404.
 */
export function elsewhere(router: Router<unknown>, c: Context<any, any>, slash: TrailingSlashRule | undefined): Response | undefined {
  const method = c.req.method;
  const allowed = router.allowed(c.path);
  if (allowed.length > 0) {
    const allow = (allowed.includes('OPTIONS') ? allowed : [...allowed, 'OPTIONS']).join(', ');
    if (method === 'OPTIONS') return new Response(null, { status: 204, headers: { allow } });
    throw new HttpError(405, `${method} is not allowed here`, { headers: { allow } });
  }
  return slash?.(c, (path) => router.match(method, path) !== null);
}
