// jwt(): signed bearer tokens, verified by jose (signature, algorithm, exp/nbf/iss/aud).
import { type JWTPayload, type JWTVerifyGetKey, type JWTVerifyOptions, jwtVerify, type KeyObject } from 'jose';
import type { Handler } from '../../compose.ts';
import type { Context } from '../../context.ts';
import { bearerChallenge, bearerToken } from './bearer.ts';
import { type AuthFailure, checkRealm, unauthorized } from './challenge.ts';

export interface JwtOptions {
  /** A shared secret for HS256/384/512. */
  secret?: string | Uint8Array;
  /** A public key (CryptoKey, JWK, KeyObject), or a key set: `createRemoteJWKSet(new URL(…))` / `createLocalJWKSet(…)` from jose. */
  key?: CryptoKey | Uint8Array | KeyObject | JsonWebKey | JWTVerifyGetKey;
  /** Accepted algorithms. Default HS256 with `secret`; required with `key`. `none` is never accepted. */
  alg?: string | readonly string[];
  issuer?: string | string[];
  audience?: string | string[];
  /** Leeway for exp/nbf, in seconds. Default 0. */
  clockTolerance?: number;
  /** Claims the token must carry (e.g. `['sub']`). `exp` is always required unless `requireExp: false`. */
  requiredClaims?: string[];
  requireExp?: boolean;
  realm?: string;
}

const HMAC = new Set(['HS256', 'HS384', 'HS512']);
const encoder = new TextEncoder();

/**
 * Verify `Authorization: Bearer <JWT>` with jose and put its claims in `c.get('jwtPayload')`.
 * Expired, not yet valid, badly signed, `alg: none`, other-algorithm and malformed tokens get
 * 401 with `WWW-Authenticate: Bearer error="invalid_token"`. See docs/auth.md.
 *
 * @example
 * app.use('/api', jwt({ secret: env.JWT_SECRET }));
 * app.post('/api/notes', (c) => c.json({ user: jwtPayload(c).sub }));
 */
export function jwt(options: JwtOptions): Handler {
  const realm = checkRealm(options.realm ?? 'api', 'jwt()');
  if (options?.secret === undefined && options?.key === undefined) throw new TypeError('jwt() needs { secret } or { key }');
  const algorithms = typeof options.alg === 'string' ? [options.alg] : [...(options.alg ?? (options.secret !== undefined ? ['HS256'] : []))];
  if (algorithms.length === 0) throw new TypeError('jwt(): with a key, name the algorithms it verifies: jwt({ key, alg: "RS256" })');
  if (algorithms.some((a) => typeof a !== 'string' || a.toLowerCase() === 'none'))
    throw new TypeError('jwt(): "none" is not an algorithm: tokens must be signed');
  let key: NonNullable<JwtOptions['key']>;
  if (options.secret !== undefined) {
    if (options.key !== undefined) throw new TypeError('jwt(): give secret or key, not both');
    if (!algorithms.every((a) => HMAC.has(a))) throw new TypeError('jwt(): a secret verifies HS256, HS384 or HS512 only; use key for public-key algorithms');
    key = typeof options.secret === 'string' ? encoder.encode(options.secret) : options.secret;
    if (key.length === 0) throw new TypeError('jwt(): the secret is empty');
  } else key = options.key as NonNullable<JwtOptions['key']>;
  const verifyOptions: JWTVerifyOptions = {
    algorithms,
    issuer: options.issuer,
    audience: options.audience,
    clockTolerance: options.clockTolerance,
    requiredClaims: [...(options.requireExp === false ? [] : ['exp']), ...(options.requiredClaims ?? [])],
  };
  const fail = (c: Context<any, any>, reason: AuthFailure, description: string): never =>
    unauthorized(c, 'bearer', reason, bearerChallenge(realm, reason, description), `Invalid token: ${description}`);

  return async (c, next) => {
    const token = bearerToken(c);
    if (token === undefined)
      unauthorized(c, 'bearer', 'missing', bearerChallenge(realm, 'missing'), 'Authentication required: send Authorization: Bearer <token>');
    if (token === null) return fail(c, 'malformed', 'the token is malformed');
    let payload: JWTPayload;
    try {
      payload = (await jwtVerify(token, key as Parameters<typeof jwtVerify>[1], verifyOptions)).payload;
    } catch (error) {
      const [reason, description] = classify(error);
      return fail(c, reason, description);
    }
    c.set('jwtPayload' as never, payload as never);
    await next();
  };
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
      return ['malformed', 'the token is malformed'];
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
export function jwtPayload<T extends JWTPayload = JWTPayload>(c: Context<any, any>): T {
  const payload = (c.get as (key: string) => unknown)('jwtPayload');
  if (payload === undefined) throw new Error('No JWT on this request: register jwt({ secret }) before this handler');
  return payload as T;
}
