/**
 * The chains of requests no route answers (404, 405 and automatic OPTIONS). Any path may come, so
 * they cannot be composed ahead of time: a path's decoded segments are tested against every
 * middleware scope, and one chain is composed per distinct set of covering middleware, then kept.
 * Both maps are bounded, so random paths cannot grow memory.
 */
import { covering, type ScopedMiddleware } from './app-table.ts';
import { compose, type ErrorResponder, type Handler } from './compose.ts';
import type { TrailingSlashRule } from './app-types.ts';
import type { Context } from './context.ts';
import { HttpError } from './errors.ts';
import { decodeSegments } from './path.ts';
import type { Router } from './router.ts';

type Chain = (c: Context<any, any>) => unknown;

/** Distinct middleware sets, and raw paths, whose chains are kept. */
const MAX_KEPT = 1024;

/**
 * The chain finder of one compiled table: `scoped` is every middleware with its full scope, `end`
 * the handler that answers last. It returns null for a path whose percent-encoding is malformed.
 */
export function unmatchedChains(scoped: ScopedMiddleware[], end: Handler, onError: ErrorResponder): (path: string) => Chain | null {
  const byKey = new Map<string, Chain>();
  // Raw path -> its chain, so a repeated preflight or 404 skips decoding and the scope scan.
  const byPath = new Map<string, Chain>();
  return (path) => {
    const known = byPath.get(path);
    if (known !== undefined) return known;
    const segments = decodeSegments(path);
    if (segments === null) return null;
    const { key, fns } = covering(scoped, segments);
    let chain = byKey.get(key);
    if (chain === undefined) {
      chain = compose([...fns, end], onError);
      if (byKey.size < MAX_KEPT) byKey.set(key, chain);
    }
    if (byPath.size < MAX_KEPT) byPath.set(path, chain);
    return chain;
  };
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
