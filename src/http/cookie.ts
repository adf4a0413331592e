// rove/cookie: read and write cookies from a handler.
// Apart from the core so that an app which sets no cookie bundles none of this.
import type { Context } from '../core/context.ts';
import { type CookieKeys, checkKeys, signCookieValue, verifyCookieValue } from './cookie-signing.ts';
import { type CookieOptions, parseCookies, prefixed, serializeCookie } from './cookies.ts';

export type { CookieKeys, CookieOptions };
export { signCookieValue, verifyCookieValue };

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
 * `Path` defaults to `/`; `SameSite=None` and `partitioned` imply `Secure`. A `__Secure-` or
 * `__Host-` name (or the `prefix` option, which adds one) must follow its prefix's rules
 * (`Secure`; for `__Host-` also `Path=/` and no `Domain`), else a TypeError.
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

/** Options for deleteCookie: those the cookie was set with, but its lifetime. */
export type DeleteCookieOptions = Omit<CookieOptions, 'maxAge' | 'expires'>;

/**
 * Tell the client to drop a cookie (empty value, `Max-Age=0`, an expiry in 1970). Give the
 * options it was set with: browsers match `path` and `domain`, and refuse a `__Secure-` or
 * `__Host-` cookie (or `prefix`) without `Secure`, which the prefix's defaults add here too.
 * Returns the value the request carried.
 *
 * @example
 * app.post('/logout', (c) => {
 *   deleteCookie(c, 'theme', { path: '/', secure: true, sameSite: 'Lax' });
 *   deleteCookie(c, 'sid', { prefix: 'host' }); // __Host-sid, Secure, Path=/
 *   return c.redirect('/', 303);
 * });
 */
export function deleteCookie(c: Context<any, any>, name: string, options: DeleteCookieOptions = {}): string | undefined {
  const had = getCookie(c, prefixed(name, options).name);
  setCookie(c, name, '', { ...options, maxAge: 0, expires: new Date(0) });
  return had;
}

/**
 * Set a cookie signed with HMAC-SHA256 under the first of `keys` (`value.signature`, the format
 * Hono writes). Rotate by putting a new key first: cookies signed with the older ones still verify.
 *
 * @example
 * import { setSignedCookie } from 'rove/cookie';
 * app.post('/prefs', async (c) => {
 *   await setSignedCookie(c, 'uid', '42', [c.env.COOKIE_SECRET], { httpOnly: true, prefix: 'host' });
 *   return c.text('ok');
 * });
 */
export async function setSignedCookie(c: Context<any, any>, name: string, value: string, keys: CookieKeys, options?: CookieOptions): Promise<void> {
  setCookie(c, name, await signCookieValue(value, keys), options);
}

/**
 * A signed cookie's value: `undefined` when the request has no such cookie, `false` when no key
 * verifies its signature (tampered, or signed with a key no longer listed). Pass the prefixed
 * name (`__Host-uid`) for a cookie set with `prefix`.
 *
 * @example
 * import { getSignedCookie } from 'rove/cookie';
 * const uid = await getSignedCookie(c, 'uid', [c.env.COOKIE_SECRET, c.env.OLD_COOKIE_SECRET]);
 * if (uid === false) throw new HttpError(400, 'Bad cookie');
 */
export async function getSignedCookie(c: Context<any, any>, name: string, keys: CookieKeys): Promise<string | undefined | false> {
  checkKeys(keys, 'getSignedCookie()');
  const signed = getCookie(c, name);
  return signed === undefined ? undefined : verifyCookieValue(signed, keys);
}
