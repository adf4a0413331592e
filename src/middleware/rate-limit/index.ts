// rove/rate-limit: a limit on requests per client and window, counted in memory or in a shared store.

export { type RateLimitBindingLike, rateLimitBindingStore } from './binding-store.ts';
export { type DenoKvAtomicLike, type DenoKvLike, type DenoKvStoreOptions, denoKvStore } from './deno-kv-store.ts';
export {
  type DurableObjectNamespaceLike,
  type DurableObjectStateLike,
  type DurableObjectStoreOptions,
  durableObjectStore,
  RateLimitCounter,
} from './durable-object-store.ts';
export { type MemoryStoreOptions, memoryStore } from './memory-store.ts';
export { type MissingKey, type RateLimitOptions, rateLimit } from './rate-limit.ts';
export { type RedisLike, type RedisStoreOptions, redisStore } from './redis-store.ts';
export type { RateLimitHit, RateLimitStore, RateLimitVerdict, RateLimitVerdictStore } from './store.ts';
