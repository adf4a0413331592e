// rove/cors: Cross-Origin Resource Sharing headers and preflight answers.
export { type CorsOptions, type CorsRule, cors } from './cors.ts';
