// rove/cookie: read and write cookies from a handler.
// Apart from the core so that an app which sets no cookie bundles none of this.
import type { Context } from './context.ts';
import { type CookieOptions, parseCookies, serializeCookie } from './cookies.ts';

export type { CookieOptions };

const parsed = new WeakMap<Context<any, any>, Record<string, string>>();

/**
 * The request's cookies, parsed once per request (at most 100; the first of a
 * repeated name wins; bad percent-encoding keeps the raw text). Names are own
 * keys of a prototype-less object, so `__proto__` is an ordinary name.
 *
 * @example
 * import { getCookie } from 'rove/cookie';
 * app.get('/', (c) => c.text(`theme: ${getCookie(c, 'theme') ?? 'light'}`));
 */
export function getCookie(c: Context<any, any>): Record<string, string>;
export function getCookie(c: Context<any, any>, name: string): string | undefined;
export function getCookie(c: Context<any, any>, name?: string): Record<string, string> | string | undefined {
  let all = parsed.get(c);
  if (all === undefined) parsed.set(c, (all = parseCookies(c.req.header('cookie') ?? null)));
  return name === undefined ? all : all[name];
}

/**
 * Add a `Set-Cookie` header to the response. The value is percent-encoded;
 * a bad name, or a `path` or `domain` holding `;`, CR or LF, throws a TypeError.
 * `Path` defaults to `/`; `SameSite=None` and `partitioned` imply `Secure`.
 *
 * @example
 * import { setCookie } from 'rove/cookie';
 * app.post('/theme', (c) => {
 *   setCookie(c, 'theme', 'dark', { httpOnly: true, sameSite: 'Lax', maxAge: 86400 });
 *   return c.redirect('/', 303);
 * });
 */
export function setCookie(c: Context<any, any>, name: string, value: string, options?: CookieOptions): void {
  c.header('set-cookie', serializeCookie(name, value, options), { append: true });
}

/**
 * Tell the client to drop a cookie (empty value, `Max-Age=0`, an expiry in 1970).
 * Give the same `path` and `domain` it was set with.
 *
 * @example
 * app.post('/logout', (c) => { deleteCookie(c, 'theme'); return c.redirect('/', 303); });
 */
export function deleteCookie(c: Context<any, any>, name: string, options?: Pick<CookieOptions, 'path' | 'domain'>): void {
  setCookie(c, name, '', { ...options, maxAge: 0, expires: new Date(0) });
}
