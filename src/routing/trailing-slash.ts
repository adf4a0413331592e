/**
 * The trailing-slash redirect, as a rule for `new App({ trailingSlash })`: apps that keep `/a`
 * and `/a/` apart (the default) carry none of it.
 */
import type { TrailingSlashRule } from '../core/app-types.ts';
import { isSafeLocation } from '../core/context.ts';
import { otherSlash } from './path.ts';

/**
 * Redirects a request that no route answers to the same path with its trailing slash added or
 * removed, when that path has a route for the method: 301 for GET and HEAD, 308 (which keeps the
 * method and body) otherwise. The query string is kept. The Location passes the same check as
 * `c.redirect`; a path that fails it gets the 404.
 *
 * @example
 * import { App } from 'rove';
 * import { redirectTrailingSlash } from 'rove/trailing-slash';
 * const app = new App({ trailingSlash: redirectTrailingSlash });
 * app.get('/docs', (c) => c.text('docs')); // GET /docs/?v=2 answers 301 to /docs?v=2
 */
export const redirectTrailingSlash: TrailingSlashRule = (c, routed) => {
  const alternate = otherSlash(c.path);
  if (alternate === null || !routed(alternate)) return undefined;
  const url = c.req.url;
  const q = url.indexOf('?');
  const location = alternate + (q === -1 || q === url.length - 1 ? '' : url.slice(q));
  const method = c.req.method;
  // The same rule as c.redirect: never a scheme-relative or control-character Location.
  if (isSafeLocation(location)) return c.body(null, method === 'GET' || method === 'HEAD' ? 301 : 308, { location });
  return undefined;
};
