import { fromBase64Url, toBase64Url } from '../../http/base64url.ts';
import { type CacheStore, fromStored, toStored } from './store.ts';

/**
 * The one method of a Redis client the store uses: send a command, get its reply. node-redis
 * (`createClient()`) has it as is; for ioredis pass `{ sendCommand: (args) => redis.call(args[0], ...args.slice(1)) }`.
 */
export interface RedisLike {
  sendCommand(args: string[]): Promise<unknown>;
}

export interface RedisCacheOptions {
  /** Prepended to every key, so one Redis database can hold other data too. Default `cache:`. */
  prefix?: string;
}

/**
 * Copies kept in Redis, shared by every process and machine that uses the same server: a write
 * through one invalidates the copy for all. Redis expires each copy when it stops being fresh
 * (SET … PX), so nothing has to sweep. Bodies are stored as base64url in JSON. Give a connected
 * client; where the client depends on the request (per runtime, per tenant), cache()'s `store`
 * takes a function of the context instead. When Redis fails, cache() logs it once and passes
 * requests through (see docs/rate-limit.md#cache).
 *
 * @example
 * import { createClient } from 'redis';
 * import { cache, redisCache } from 'rove/cache';
 * const redis = await createClient({ url: process.env.REDIS_URL }).connect();
 * app.use('/api/public', cache({ store: redisCache(redis) }));
 */
export function redisCache(redis: RedisLike, options: RedisCacheOptions = {}): CacheStore {
  const prefix = options.prefix ?? 'cache:';
  return {
    async match(key) {
      const value = await redis.sendCommand(['GET', prefix + key.url]);
      if (value === null || value === undefined) return undefined;
      if (typeof value !== 'string') throw new TypeError('redisCache: unexpected reply from Redis');
      const { status, headers, body } = JSON.parse(value) as { status: number; headers: [string, string][]; body: string };
      const bytes = fromBase64Url(body);
      return bytes === null ? undefined : fromStored({ status, headers, body: bytes });
    },
    async put(key, response, ttlSeconds = 60) {
      const { status, headers, body } = await toStored(response);
      const value = JSON.stringify({ status, headers, body: toBase64Url(body) });
      await redis.sendCommand(['SET', prefix + key.url, value, 'PX', String(Math.max(1, Math.ceil(ttlSeconds * 1000)))]);
    },
    async delete(key) {
      return redis.sendCommand(['DEL', prefix + key.url]);
    },
  };
}
