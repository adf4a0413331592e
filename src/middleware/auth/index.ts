// rove/auth: Basic, bearer-token and JWT authentication. jwt() verifies through jose.
export { type BasicAuthOptions, basicAuth } from './basic.ts';
export { type BearerAuthOptions, bearerAuth } from './bearer.ts';
export type { AuthFailure } from './challenge.ts';
export { type JwtOptions, jwt, jwtPayload } from './jwt.ts';
