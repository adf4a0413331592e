// rove/auth: Basic, bearer-token and JWT authentication. jwt() verifies through jose.
export { ConfigError, type FromContext } from '../../core/from-context.ts';
export { type BasicAuthOptions, type BasicCredential, basicAuth } from './basic.ts';
export { type BearerAuthOptions, type BearerTokens, bearerAuth } from './bearer.ts';
export type { AuthFailure } from './challenge.ts';
export { type JwtKeySet, type JwtOptions, type JwtSecret, jwt, jwtPayload } from './jwt.ts';
