// The Workers pool's main module: the hello example's worker, plus the Durable Object classes
// the tests bind (a Durable Object class must be exported by the main module).

export { default } from '../../examples/hello/worker.ts';
export { RateLimitCounter } from '../../src/middleware/rate-limit/index.ts';
