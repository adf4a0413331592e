import type { Handler } from '../../core/compose.ts';
import type { Context, Env } from '../../core/context.ts';
import { HttpError } from '../../core/errors.ts';
import { asList, ConfigProblems, Derived, type FromContext } from '../../core/from-context.ts';
import { named } from '../../core/named.ts';
import { TOKEN } from '../../http/headers.ts';
import { timingSafeEqual } from '../../http/timing-safe.ts';
import { type AuthFailure, type AuthMessage, checkRealm, messageFor, unauthorized } from './challenge.ts';

/** The tokens let in: one, or several (the current one and one being retired). */
export type BearerTokens = string | readonly string[];

/** Where the token is read: which header, and the scheme word before the token. */
export interface TokenSource {
  /** The header holding the token. Default `authorization`. */
  headerName?: string;
  /** The word before the token (`<prefix> <token>`), matched case-insensitively. Default `Bearer`; `''` for a bare token. */
  prefix?: string;
}

export type BearerAuthOptions<E extends Env = any> = TokenSource & {
  /** Named in the challenge. Default `api`. */
  realm?: string;
  /**
   * The problem detail of each refusal, fixed or from the context: `missing` (no token, 401),
   * `malformed` (not `<prefix> <b64token>`, 400) and `invalid` (a token not let in, 401).
   */
  messages?: { missing?: AuthMessage<E>; malformed?: AuthMessage<E>; invalid?: AuthMessage<E> };
} & (
    | { token: BearerTokens | FromContext<E, BearerTokens | Promise<BearerTokens>>; verify?: never }
    | { verify: (token: string, c: Context<E, any, any>) => boolean | Promise<boolean>; token?: never }
  );

/** Token lists kept checked for a `token` function: the current one and a few rotated out. */
const MAX_LISTS = 4;

/** Longest token accepted; longer ones are refused unread. */
export const MAX_TOKEN_LENGTH = 8192;
// RFC 6750 §2.1: b64token.
const B64TOKEN = /^[A-Za-z0-9\-._~+/]+=*$/;

/** A token source checked at registration: the header's name and the prefix with its space, lower-cased. */
export interface CheckedSource {
  header: string;
  lead: string;
}

/** Check `headerName` and `prefix` when the middleware is registered. */
export function checkSource(source: TokenSource, feature: string): CheckedSource {
  const header = source.headerName ?? 'authorization';
  const prefix = source.prefix ?? 'Bearer';
  if (typeof header !== 'string' || !TOKEN.test(header)) throw new TypeError(`${feature}: headerName must be a header name`);
  if (typeof prefix !== 'string' || (prefix !== '' && !TOKEN.test(prefix))) throw new TypeError(`${feature}: prefix must be a word (a token) or ''`);
  return { header: header.toLowerCase(), lead: prefix === '' ? '' : `${prefix.toLowerCase()} ` };
}

const AUTHORIZATION: CheckedSource = { header: 'authorization', lead: 'bearer ' };

/** The token of `Authorization: Bearer <token>` (or another header and prefix): undefined when absent, null when malformed. */
export function bearerToken(c: Context<any, any>, source: CheckedSource = AUTHORIZATION): string | undefined | null {
  const header = c.req.header(source.header);
  if (header === undefined || header.slice(0, source.lead.length).toLowerCase() !== source.lead) return undefined;
  const token = header.slice(source.lead.length).trim();
  if (token === '' && source.lead === '') return undefined;
  return token.length <= MAX_TOKEN_LENGTH && B64TOKEN.test(token) ? token : null;
}

/**
 * An Authorization header that is not `Bearer <b64token>` (`Bearer a b`): RFC 6750 §3.1's
 * invalid_request, a 400 with its challenge, not a 401.
 */
export function malformedRequest(c: Context<any, any>, realm: string, message = 'Malformed Authorization header: send Authorization: Bearer <token>'): never {
  c.emit('auth:failed', () => ({ scheme: 'bearer', reason: 'malformed', method: c.req.method, path: c.req.path }));
  throw new HttpError(400, message, {
    headers: { 'www-authenticate': bearerChallenge(realm, 'malformed') },
  });
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
 * `token` may be a function of the context, for keys kept in `c.env` (Workers); one that gives
 * no token fails the request with a 500. For signed tokens, use `jwt()`. `headerName` and
 * `prefix` read the token from elsewhere; `messages` words the refusals.
 *
 * @example
 * app.use('/api', bearerAuth({ token: [process.env.API_KEY!, process.env.OLD_API_KEY!] }));
 * app.use('/api', bearerAuth({ token: (c) => [c.env.API_KEY] }));
 * app.use('/hooks', bearerAuth({ token: 'k', headerName: 'x-api-key', prefix: '', messages: { invalid: 'Unknown key' } }));
 */
export function bearerAuth<E extends Env = any>(options: BearerAuthOptions<E>): Handler<E> {
  const realm = checkRealm(options.realm ?? 'api', 'bearerAuth()');
  const source = checkSource(options, 'bearerAuth()');
  const messages = options.messages ?? {};
  const shown = source.header === 'authorization' && source.lead === 'bearer ' ? 'Authorization: Bearer <token>' : `${source.header}: ${source.lead}<token>`;
  let verify: (token: string, c: Context<any, any>, expected: readonly string[] | undefined) => boolean | Promise<boolean>;
  // The tokens a `token` function gives for a request; undefined for a fixed list.
  let expectedFor: ((c: Context<any, any>) => Promise<readonly string[]>) | undefined;
  if (typeof options.verify === 'function') verify = options.verify;
  else {
    const option = options.token;
    const fixed = typeof option === 'function' ? [] : checkTokens(option, (message) => new TypeError(message));
    if (typeof option === 'function') expectedFor = resolver(option);
    verify = async (token, _c, list = fixed) => (await Promise.all(list.map((t) => timingSafeEqual(token, t)))).includes(true);
  }
  const layer: Handler<E> = async (c, next) => {
    // Resolved before the token is read: a missing key fails every request (500), never only some.
    const expected = expectedFor === undefined ? undefined : await expectedFor(c);
    const token = bearerToken(c, source);
    if (token === undefined)
      unauthorized(c, 'bearer', 'missing', bearerChallenge(realm, 'missing'), messageFor(c, messages.missing, `Authentication required: send ${shown}`));
    if (token === null) malformedRequest(c, realm, messageFor(c, messages.malformed, `Malformed ${source.header} header: send ${shown}`));
    if ((await verify(token, c, expected)) !== true)
      unauthorized(c, 'bearer', 'invalid', bearerChallenge(realm, 'invalid'), messageFor(c, messages.invalid, 'Invalid bearer token'));
    await next();
  };
  return named('bearerAuth', layer);
}

/** The token option as a list of tokens, or `refuse`'s error. */
function checkTokens(option: unknown, refuse: (message: string) => Error): readonly string[] {
  const list = asList(option);
  if (list === null || list.length === 0 || list.some((t) => typeof t !== 'string' || !B64TOKEN.test(t)))
    throw refuse('bearerAuth() needs { token } (one or more tokens of letters, digits and -._~+/) or { verify }');
  return list as readonly string[];
}

/** A `token` function's list for a request, checked once per distinct list. */
function resolver(option: FromContext<any, BearerTokens | Promise<BearerTokens>>): (c: Context<any, any>) => Promise<readonly string[]> {
  const problems = new ConfigProblems();
  const refuse = (message: string) => problems.error(`${message}; token(c) gave none, or one that is not a token: is the variable set?`);
  const lists = new Derived<unknown, readonly string[]>(MAX_LISTS, (given) => checkTokens(given, refuse));
  return async (c) => {
    let given: unknown;
    try {
      given = await option(c);
    } catch (error) {
      throw problems.failed('bearerAuth(): token(c)', error);
    }
    if (asList(given) === null) throw refuse('bearerAuth() needs { token }');
    return lists.get(JSON.stringify(given), given);
  };
}
