import type { Context } from '../../core/context.ts';

/**
 * Where sessions live on the server side: a text value per session id, with a lifetime.
 * `memoryStore()` and `kvStore()` implement it; any other backend (Redis, a database) can too.
 * The values are Rove's own JSON; ids are random 256-bit strings, and the cookie holds only a sealed id.
 */
export interface SessionStore {
  /** The value saved for `id`, or null (undefined) when there is none or it expired. */
  get(id: string, c: Context<any, any>): Promise<string | null | undefined>;
  /** Save `value` for `id`, to be forgotten after `maxAge` seconds. */
  set(id: string, value: string, maxAge: number, c: Context<any, any>): Promise<void>;
  delete(id: string, c: Context<any, any>): Promise<void>;
}

/** The default store's marker: the session is sealed into the cookie itself, nothing is kept on the server. */
export interface CookieStore {
  readonly kind: 'cookie';
}

/**
 * Keep the whole session in the cookie, encrypted and authenticated (AES-256-GCM):
 * nothing to run on the server, so it works at the edge as is. The session must fit in
 * one cookie (about 4 KB), and a cookie cannot be revoked before it expires: after
 * `destroy()`, an old copy of the cookie still reads until its expiry. Use a server
 * store where logging out must end the session for good.
 *
 * @example
 * app.use(session({ keys: (c) => [c.env.SESSION_SECRET], store: cookieStore() }));
 */
export function cookieStore(): CookieStore {
  return COOKIE_STORE;
}

const COOKIE_STORE: CookieStore = Object.freeze({ kind: 'cookie' as const });

export function isCookieStore(store: SessionStore | CookieStore): store is CookieStore {
  return (store as CookieStore).kind === 'cookie';
}
