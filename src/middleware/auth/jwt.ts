// jwt(): signed bearer tokens, verified by jose (signature, algorithm, exp/nbf/iss/aud).
import {
  createLocalJWKSet,
  createRemoteJWKSet,
  type JSONWebKeySet,
  type JWTPayload,
  type JWTVerifyGetKey,
  type JWTVerifyOptions,
  jwtVerify,
  type KeyObject,
} from 'jose';
import type { Handler } from '../../core/compose.ts';
import type { Context, Env } from '../../core/context.ts';
import { ConfigProblems, Derived, type FromContext } from '../../core/from-context.ts';
import { named } from '../../core/named.ts';
import { toBase64Url } from '../../http/base64url.ts';
import { getCookie } from '../../http/cookie.ts';
import { TOKEN } from '../../http/headers.ts';
import { bearerChallenge, bearerToken, type CheckedSource, checkSource, MAX_TOKEN_LENGTH, malformedRequest } from './bearer.ts';
import { type AuthFailure, checkRealm, unauthorized } from './challenge.ts';

/** A shared secret for HS256/384/512: text or bytes. */
export type JwtSecret = string | Uint8Array;
/** Public keys: the https URL of a JWKS document, or the document itself (`{ keys: [...] }`, or its JSON text). */
export type JwtKeySet = string | URL | JSONWebKeySet;

export interface JwtOptions<E extends Env = any> {
  /** A shared secret for HS256/384/512, or a function of the context that gives it: `(c) => c.env.JWT_SECRET`. */
  secret?: JwtSecret | FromContext<E, JwtSecret | Promise<JwtSecret>>;
  /**
   * Public keys as a key set: its URL (fetched and cached by jose), or the set itself; or a
   * function of the context that gives either: `(c) => c.env.JWKS_URL`. Needs `alg`.
   */
  jwks?: JwtKeySet | FromContext<E, JwtKeySet | Promise<JwtKeySet>>;
  /** A public key (CryptoKey, JWK, KeyObject), or a key set: `createRemoteJWKSet(new URL(…))` / `createLocalJWKSet(…)` from jose. */
  key?: CryptoKey | Uint8Array | KeyObject | JsonWebKey | JWTVerifyGetKey;
  /** Accepted algorithms. Default HS256 with `secret`; required with `key` and `jwks`. `none` is never accepted. */
  alg?: string | readonly string[];
  issuer?: string | string[];
  audience?: string | string[];
  /** Leeway for exp/nbf, in seconds. Default 0. */
  clockTolerance?: number;
  /** Claims the token must carry (e.g. `['sub']`). `exp` is always required unless `requireExp: false`. */
  requiredClaims?: string[];
  requireExp?: boolean;
  realm?: string;
  /**
   * The header holding the token, when not `Authorization`: `header: 'x-token'`. There the
   * `Bearer ` before the token is optional (`x-token: <JWT>` or `x-token: Bearer <JWT>`);
   * `Authorization` always needs it.
   */
  header?: string;
  /**
   * A cookie holding the token, read when the request has no token header (browsers send
   * cookies by themselves: keep csrf() or `SameSite` in front of routes that change things).
   */
  cookie?: string;
}

/** What jose verifies with. */
type VerifyKey = NonNullable<JwtOptions['key']>;

const HMAC = new Map([
  ['HS256', 'SHA-256'],
  ['HS384', 'SHA-384'],
  ['HS512', 'SHA-512'],
]);
/** Secrets and key sets kept derived for a function option: the current one and a few rotated out. */
const MAX_DERIVED = 4;
const encoder = new TextEncoder();

/**
 * Verify `Authorization: Bearer <JWT>` with jose and put its claims in `c.get('jwtPayload')`.
 * Expired, not yet valid, badly signed, `alg: none`, other-algorithm and malformed tokens get
 * 401 with `WWW-Authenticate: Bearer error="invalid_token"`. The secret or key set may be a
 * function of the context (on Workers, secrets are in `c.env`); what it gives is imported once
 * and kept while it gives the same. `header` and `cookie` read the token from elsewhere. A refusal
 * is an HttpError whose `cause` is jose's error, for `app.onError`. See docs/auth.md.
 *
 * @example
 * app.use('/api', jwt({ secret: (c) => c.env.JWT_SECRET }));
 * app.use('/partners', jwt({ jwks: 'https://id.example/.well-known/jwks.json', alg: 'RS256' }));
 * app.post('/api/notes', (c) => c.json({ user: jwtPayload(c).sub }));
 * app.use('/app', jwt({ secret: (c) => c.env.JWT_SECRET, cookie: 'token' })); // a browser's token, from a cookie
 */
export function jwt<E extends Env = any>(options: JwtOptions<E>): Handler<E> {
  const realm = checkRealm(options?.realm ?? 'api', 'jwt()');
  const { secret, jwks } = options ?? {};
  const given = [secret, jwks, options?.key].filter((o) => o !== undefined).length;
  if (given === 0) throw new TypeError('jwt() needs { secret }, { jwks } or { key }');
  if (given > 1) throw new TypeError('jwt(): give one of secret, jwks and key');
  const algorithms = typeof options.alg === 'string' ? [options.alg] : [...(options.alg ?? (secret !== undefined ? ['HS256'] : []))];
  if (algorithms.length === 0) throw new TypeError('jwt(): with a key or key set, name the algorithms it verifies: jwt({ key, alg: "RS256" })');
  if (algorithms.some((a) => typeof a !== 'string' || a.toLowerCase() === 'none'))
    throw new TypeError('jwt(): "none" is not an algorithm: tokens must be signed');
  if (secret !== undefined && !algorithms.every((a) => HMAC.has(a)))
    throw new TypeError('jwt(): a secret verifies HS256, HS384 or HS512 only; use key or jwks for public-key algorithms');
  if (options.cookie !== undefined && (typeof options.cookie !== 'string' || !TOKEN.test(options.cookie)))
    throw new TypeError('jwt(): cookie must be a cookie name');
  const sources: CheckedSource[] =
    options.header === undefined || options.header.toLowerCase() === 'authorization'
      ? [checkSource({}, 'jwt()')]
      : [checkSource({ headerName: options.header }, 'jwt()'), checkSource({ headerName: options.header, prefix: '' }, 'jwt()')];
  const problems = new ConfigProblems();
  // A fixed key is ready now; a function's is resolved per request (keyFor).
  let key: VerifyKey | undefined;
  let keyFor: ((c: Context<any, any>) => Promise<VerifyKey>) | undefined;
  if (typeof secret === 'function') keyFor = fromContext(secret, 'secret', secretKey, problems);
  else if (secret !== undefined) key = secretKey(secret, atRegistration);
  else if (typeof jwks === 'function') keyFor = fromContext(jwks, 'jwks', keySet, problems);
  else if (jwks !== undefined) key = keySet(jwks, atRegistration);
  else key = options.key;
  const verifyOptions: JWTVerifyOptions = {
    algorithms,
    issuer: options.issuer,
    audience: options.audience,
    clockTolerance: options.clockTolerance,
    requiredClaims: [...(options.requireExp === false ? [] : ['exp']), ...(options.requiredClaims ?? [])],
  };
  const fail = (c: Context<any, any>, reason: AuthFailure, description: string, cause: unknown): never =>
    unauthorized(c, 'bearer', reason, bearerChallenge(realm, reason, description), `Invalid token: ${description}`, cause);
  /** The request's token: from the header (with or without `Bearer ` off Authorization), else the cookie. */
  const tokenOf = (c: Context<any, any>): string | undefined | null => {
    for (const source of sources) {
      const token = bearerToken(c, source);
      if (token !== undefined) return token;
    }
    if (options.cookie === undefined) return undefined;
    const value = getCookie(c, options.cookie);
    if (value === undefined || value === '') return undefined;
    return value.length <= MAX_TOKEN_LENGTH ? value : null;
  };

  const layer: Handler<E> = async (c, next) => {
    // Resolved before the token is looked at: a missing secret fails every request (500), never only some.
    const verifyKey = key ?? (await keyFor!(c));
    const token = tokenOf(c);
    if (token === undefined)
      unauthorized(c, 'bearer', 'missing', bearerChallenge(realm, 'missing'), 'Authentication required: send Authorization: Bearer <token>');
    if (token === null)
      malformedRequest(c, realm, sources[0].header === 'authorization' ? undefined : `Malformed ${sources[0].header} header, or a token over 8 KiB`);
    let payload: JWTPayload;
    try {
      payload = (await jwtVerify(token, verifyKey as Parameters<typeof jwtVerify>[1], verifyOptions)).payload;
    } catch (error) {
      const [reason, description] = classify(error);
      return fail(c, reason, description, error);
    }
    c.set('jwtPayload' as never, payload as never);
    await next();
  };
  return named('jwt', layer);
}

/** The error for a bad secret or key set: a TypeError at registration, a logged ConfigError on a request. */
type Refuse = (message: string) => Error;
const atRegistration: Refuse = (message) => new TypeError(message);

/**
 * An HMAC secret as jose's key function: the CryptoKey for the token's algorithm (one of
 * `alg`, which jose checks first), imported on first use and kept. Importing on every request
 * is what jose does with raw bytes; Workers refuse crypto work at global scope, hence not now.
 */
function secretKey(secret: JwtSecret, refuse: Refuse): VerifyKey {
  const bytes = typeof secret === 'string' ? encoder.encode(secret) : secret instanceof Uint8Array ? secret.slice() : undefined;
  if (bytes === undefined || bytes.length === 0) throw refuse('jwt(): the secret is empty, or not a string or bytes');
  const imported = new Map<string, Promise<CryptoKey>>();
  return (header) => {
    const alg = header.alg as string;
    let cryptoKey = imported.get(alg);
    if (cryptoKey === undefined) {
      cryptoKey = crypto.subtle.importKey('raw', bytes, { name: 'HMAC', hash: HMAC.get(alg) as string }, false, ['verify']);
      imported.set(alg, cryptoKey);
    }
    return cryptoKey;
  };
}

/** A key set as jose's key function: a URL becomes a remote set (fetched, cached and refreshed by jose), a document a local one. */
function keySet(set: JwtKeySet, refuse: Refuse): VerifyKey {
  if (set instanceof URL) return remote(set, refuse);
  if (typeof set === 'string') {
    const text = set.trim();
    if (!text.startsWith('{')) {
      let url: URL;
      try {
        url = new URL(text);
      } catch {
        throw refuse('jwt(): jwks is neither a URL nor a JSON key set');
      }
      return remote(url, refuse);
    }
    try {
      set = JSON.parse(text) as JSONWebKeySet;
    } catch {
      throw refuse('jwt(): jwks is neither a URL nor a JSON key set');
    }
  }
  if (typeof set !== 'object' || set === null || !Array.isArray(set.keys) || set.keys.length === 0)
    throw refuse('jwt(): jwks needs a URL or a key set with keys: { keys: [...] }');
  try {
    return createLocalJWKSet(set);
  } catch {
    throw refuse('jwt(): jwks is not a valid key set');
  }
}

function remote(url: URL, refuse: Refuse): VerifyKey {
  if (url.protocol !== 'https:' && url.protocol !== 'http:') throw refuse('jwt(): a jwks URL is https (or http for local testing)');
  return createRemoteJWKSet(url);
}

/**
 * A function option, resolved per request. What it gives is turned into a key once and kept
 * by its text (a few at a time): the same secret on every request is imported once per isolate,
 * and a rotated one is honoured as soon as it is given.
 */
function fromContext<T>(
  option: FromContext<any, T | Promise<T>>,
  name: 'secret' | 'jwks',
  toKey: (value: T, refuse: Refuse) => VerifyKey,
  problems: ConfigProblems,
): (c: Context<any, any>) => Promise<VerifyKey> {
  const what = `jwt(): ${name}(c)`;
  const refuse: Refuse = (message) => problems.error(`${message} (from ${what})`);
  const keys = new Derived<T, VerifyKey>(MAX_DERIVED, (value) => toKey(value, refuse));
  return async (c) => {
    let value: unknown;
    try {
      value = await option(c);
    } catch (error) {
      throw problems.failed(what, error);
    }
    const text = textOf(value);
    if (text === undefined) throw problems.error(`${what} gave nothing, or an empty value: is the variable set (wrangler secret put, or the environment)?`);
    return keys.get(text, value as T);
  };
}

/** The text an option's value is kept under; undefined for nothing or an empty value. */
function textOf(value: unknown): string | undefined {
  if (typeof value === 'string') return value === '' ? undefined : `s${value}`;
  if (value instanceof Uint8Array) return value.length === 0 ? undefined : `b${toBase64Url(value)}`;
  if (value instanceof URL) return `u${value.href}`;
  if (typeof value === 'object' && value !== null) return `j${JSON.stringify(value)}`;
  return undefined;
}

/** Why jose refused a token, in words safe to send back. Anything else (a key set that cannot be fetched) is rethrown: a 500, not the client's fault. */
function classify(error: unknown): [AuthFailure, string] {
  const code = (error as { code?: unknown } | null)?.code;
  switch (code) {
    case 'ERR_JWT_EXPIRED':
      return ['expired', 'the token expired'];
    case 'ERR_JWS_SIGNATURE_VERIFICATION_FAILED':
    case 'ERR_JWKS_NO_MATCHING_KEY':
    case 'ERR_JWKS_MULTIPLE_MATCHING_KEYS':
      return ['signature', 'the signature is not valid'];
    case 'ERR_JOSE_ALG_NOT_ALLOWED':
    case 'ERR_JOSE_NOT_SUPPORTED':
      return ['algorithm', 'the signing algorithm is not accepted'];
    case 'ERR_JWT_CLAIM_VALIDATION_FAILED': {
      const claim = String((error as { claim?: unknown }).claim ?? 'a');
      return ['claim', `the ${/^[a-z]{1,16}$/i.test(claim) ? claim : 'a'} claim is not valid`];
    }
    case 'ERR_JWS_INVALID':
    case 'ERR_JWT_INVALID':
    case 'ERR_JWK_INVALID':
      // A well-formed credential that is not a valid JWS: invalid_token (RFC 6750 §3.1), a 401.
      return ['invalid', 'the token is not a valid JWT'];
    default:
      throw error;
  }
}

/**
 * The verified claims of the request's JWT (after `jwt()`).
 *
 * @example
 * app.get('/api/me', (c) => c.json({ id: jwtPayload(c).sub }));
 */
export function jwtPayload<T extends JWTPayload = JWTPayload>(c: Pick<Context<any, any>, 'get'>): T {
  const payload = (c.get as (key: string) => unknown)('jwtPayload');
  if (payload === undefined) throw new Error('No JWT on this request: register jwt({ secret }) before this handler');
  return payload as T;
}
