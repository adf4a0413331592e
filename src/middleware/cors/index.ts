// rove/cors: Cross-Origin Resource Sharing headers and preflight answers.
export type { ConfigError, FromContext } from '../../core/from-context.ts';
export { type CorsOptions, type CorsOrigins, type CorsRule, cors, type OriginAnswer } from './cors.ts';
