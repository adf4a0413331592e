// rove/cache: GET responses kept in the runtime's Cache API (Workers, Deno), by Cache-Control and Vary.
export { type CacheOptions, cache } from './cache.ts';
