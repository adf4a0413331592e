// rove/cache: GET responses kept by Cache-Control and Vary, forgotten when a write succeeds;
// in the Cache API (Workers, Deno), in memory (Node, Bun) or in Redis.
export { type CacheOptions, cache } from './cache.ts';
export { type MemoryCacheOptions, memoryCache } from './memory-store.ts';
export { type RedisCacheOptions, type RedisLike, redisCache } from './redis-store.ts';
export type { CacheStore } from './store.ts';
