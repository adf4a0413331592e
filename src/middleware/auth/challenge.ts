// What the auth middleware share: the 401 answer with its WWW-Authenticate challenge, and the event.
import type { Context } from '../../core/context.ts';
import { HttpError } from '../../core/errors.ts';
import type { AuthFailure } from '../../core/event-map.ts';

/** Why a request was not let in. */
export type { AuthFailure } from '../../core/event-map.ts';

// A realm goes inside a quoted string: no quote, backslash or control character can end it early.
// biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what it refuses
const UNSAFE_REALM = /["\\\u0000-\u001f\u007f]/;

/** Check a realm when the middleware is registered. */
export function checkRealm(realm: string, feature: string): string {
  if (typeof realm !== 'string' || UNSAFE_REALM.test(realm) || realm.length > 200)
    throw new TypeError(`${feature}: realm must be a short text without quotes, backslashes or control characters`);
  return realm;
}

/** Emit auth:failed and throw the 401 (problem+json, or HTML for a browser) with its challenge. */
export function unauthorized(c: Context<any, any>, scheme: 'basic' | 'bearer', reason: AuthFailure, challenge: string, detail: string, cause?: unknown): never {
  c.emit('auth:failed', () => ({ scheme, reason, method: c.req.method, path: c.req.path }));
  throw new HttpError(401, detail, { headers: { 'www-authenticate': challenge }, cause });
}

/** A failure message: fixed, or a function of the context. */
export type AuthMessage<E extends import('../../core/context.ts').Env = any> = string | ((c: Context<E, any, any>) => string);

/** The message for a failure: the option's, else the default. */
export function messageFor(c: Context<any, any>, given: AuthMessage | undefined, fallback: string): string {
  if (given === undefined) return fallback;
  return typeof given === 'function' ? given(c) : given;
}
