/**
 * The chain of requests no route answers (404, 405 and automatic OPTIONS). Any path may come, so a
 * middleware with a prefix scope runs only when the request's decoded segments lie under its scope.
 */

import { decodeSegments } from '../routing/path.ts';
import type { Router } from '../routing/router.ts';
import { startsWith } from '../routing/scope.ts';
import type { ScopedMiddleware } from './app-table.ts';
import type { Instrument, TrailingSlashRule } from './app-types.ts';
import { compose, type ErrorResponder, type Handler } from './compose.ts';
import type { Context } from './context.ts';
import { HttpError } from './errors.ts';

/**
 * The chain for one compiled table: `scoped` is every middleware with its full scope, `end` the
 * handler that answers last. Callers refuse a path with malformed percent-encoding first.
 * Each scope is tested once per request, and the request runs a chain of only the layers it
 * falls under, composed on first use per set of layers: a 404 elsewhere passes five `/chain`
 * layers for five string tests, not five guard calls and their `next()` closures.
 */
export function unmatchedChain(scoped: ScopedMiddleware[], end: Handler, onError: ErrorResponder, layers: Instrument): (c: Context<any, any>) => unknown {
  // `/a/b/` (`/` for no segment) for a scope of plain segments: a string test on a path without '%'.
  const plain = scoped.map(
    ({ segments }) => segments.every((s) => s.kind === 'static') && `${segments.map((s) => `/${(s as { text: string }).text}`).join('')}/`,
  );
  const chains = new Map<string, (c: Context<any, any>) => unknown>();
  // The chain a path fell under last time: the same few paths come again (a preflight to an API
  // route, a 405), and one lookup costs less than testing every scope. Bounded: cleared when full.
  const byPath = new Map<string, (c: Context<any, any>) => unknown>();
  return (c) => {
    const path = c.path;
    const known = byPath.get(path);
    if (known !== undefined) return known(c);
    // Without '%' the path's segments are decoded already.
    const slashed = !path.includes('%') && `${path}/`;
    let decoded: string[] | undefined;
    // The indices of the layers the request falls under name its chain (` 0 4`).
    let key = '';
    for (let i = 0; i < scoped.length; i++) {
      const p = plain[i];
      if (slashed && p ? slashed.startsWith(p) : startsWith((decoded ??= decodeSegments(path)!), scoped[i].tests)) key += ` ${i}`;
    }
    let chain = chains.get(key);
    if (!chain) {
      chain = compose(
        layers(
          [
            ...key
              .split(' ')
              .slice(1)
              .map((i) => scoped[+i].fn),
            end,
          ],
          null,
        ),
        onError,
      );
      // At most 64 kept, one per set of layers a request fell under (an app has a handful).
      if (chains.size < 64) chains.set(key, chain);
    }
    if (path.length <= LONGEST_PATH) {
      if (byPath.size >= MAX_PATHS) byPath.clear();
      byPath.set(path, chain);
    }
    return chain(c);
  };
}

/** Paths whose chain is remembered (a scan of unknown paths clears it now and then). */
const MAX_PATHS = 256;
const LONGEST_PATH = 256;

/** The `Allow` header for the methods a path has routes for: OPTIONS is always allowed. */
export function allowHeader(allowed: string[]): string {
  return (allowed.includes('OPTIONS') ? allowed : [...allowed, 'OPTIONS']).join(', ');
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
    const allow = allowHeader(allowed);
    if (method === 'OPTIONS') return c.body(null, 204, { allow });
    throw new HttpError(405, `${method} is not allowed here`, { headers: { allow } });
  }
  return slash?.(c, (path) => router.match(method, path) !== null);
}
