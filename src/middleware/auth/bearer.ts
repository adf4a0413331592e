import type { Handler } from '../../compose.ts';
import type { Context } from '../../context.ts';
import { timingSafeEqual } from '../../timing-safe.ts';
import { type AuthFailure, checkRealm, unauthorized } from './challenge.ts';

export type BearerAuthOptions = {
  /** Named in the challenge. Default `api`. */
  realm?: string;
} & ({ token: string | readonly string[]; verify?: never } | { verify: (token: string, c: Context<any, any>) => boolean | Promise<boolean>; token?: never });

/** Longest token accepted; longer ones are refused unread. */
export const MAX_TOKEN_LENGTH = 8192;
// RFC 6750 §2.1: b64token.
const B64TOKEN = /^[A-Za-z0-9\-._~+/]+=*$/;

/** The token of `Authorization: Bearer <token>`: undefined when absent, null when malformed. */
export function bearerToken(c: Context<any, any>): string | undefined | null {
  const header = c.req.header('authorization');
  if (header === undefined || !/^bearer /i.test(header)) return undefined;
  const token = header.slice(7).trim();
  return token.length <= MAX_TOKEN_LENGTH && B64TOKEN.test(token) ? token : null;
}

/** The challenge of a Bearer 401 (RFC 6750 §3): no error code when no token was sent. */
export function bearerChallenge(realm: string, reason: AuthFailure, description?: string): string {
  if (reason === 'missing') return `Bearer realm="${realm}"`;
  const error = reason === 'malformed' ? 'invalid_request' : 'invalid_token';
  return `Bearer realm="${realm}", error="${error}"${description === undefined ? '' : `, error_description="${description}"`}`;
}

/**
 * Opaque bearer tokens (API keys): `Authorization: Bearer <token>` must be one of `token`, or
 * pass `verify`. Compared in constant time. A refusal is 401 with `WWW-Authenticate: Bearer …`.
 * For signed tokens, use `jwt()`.
 *
 * @example
 * app.use('/api', bearerAuth({ token: [env.API_KEY, env.OLD_API_KEY] }));
 */
export function bearerAuth(options: BearerAuthOptions): Handler {
  const realm = checkRealm(options.realm ?? 'api', 'bearerAuth()');
  let verify: (token: string, c: Context<any, any>) => boolean | Promise<boolean>;
  if (typeof options.verify === 'function') verify = options.verify;
  else {
    const list = typeof options.token === 'string' ? [options.token] : options.token;
    if (!Array.isArray(list) || list.length === 0 || list.some((t) => typeof t !== 'string' || !B64TOKEN.test(t)))
      throw new TypeError('bearerAuth() needs { token } (one or more tokens of letters, digits and -._~+/) or { verify }');
    verify = async (token) => (await Promise.all(list.map((t) => timingSafeEqual(token, t)))).includes(true);
  }
  return async (c, next) => {
    const token = bearerToken(c);
    if (token === undefined)
      unauthorized(c, 'bearer', 'missing', bearerChallenge(realm, 'missing'), 'Authentication required: send Authorization: Bearer <token>');
    if (token === null) unauthorized(c, 'bearer', 'malformed', bearerChallenge(realm, 'malformed'), 'Malformed bearer token');
    if (!(await verify(token, c))) unauthorized(c, 'bearer', 'invalid', bearerChallenge(realm, 'invalid'), 'Invalid bearer token');
    await next();
  };
}
