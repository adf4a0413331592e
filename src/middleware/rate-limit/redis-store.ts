import type { Context } from '../../core/context.ts';
import type { RateLimitHit, RateLimitStore } from './store.ts';

/**
 * The one method of a Redis client the store uses: send a command, get its reply. node-redis
 * (`createClient()`) has it as is; for ioredis pass `{ sendCommand: (args) => redis.call(args[0], ...args.slice(1)) }`.
 */
export interface RedisLike {
  sendCommand(args: string[]): Promise<unknown>;
}

export interface RedisStoreOptions {
  /** Prepended to every key, so one Redis database can hold other data too. Default `rl:`. */
  prefix?: string;
}

// One round trip, atomic on the server: count, and start the window's expiry with its first request.
// A key left without an expiry (by a crash between the two calls elsewhere) gets one here too.
const HIT = `local n = redis.call('INCR', KEYS[1])
local ttl = redis.call('PTTL', KEYS[1])
if ttl < 0 then redis.call('PEXPIRE', KEYS[1], ARGV[1]) ttl = tonumber(ARGV[1]) end
return {n, ttl}`;

/**
 * Counts in Redis, shared by every process and machine that uses the same server: exact
 * (INCR is atomic) and expired by Redis itself (PEXPIRE), so memory is bounded by the clients
 * active in one window. Give a connected client, or a function that finds it on the context.
 * When Redis is down, rateLimit's `onStoreError` decides (see docs/scaling.md).
 *
 * @example
 * import { createClient } from 'redis';
 * const redis = await createClient({ url: process.env.REDIS_URL }).connect();
 * app.use('/api', rateLimit({ window: 60, limit: 100, store: redisStore(redis), onStoreError: 'close' }));
 */
export function redisStore(client: RedisLike | ((c: Context<any, any>) => RedisLike), options: RedisStoreOptions = {}): RateLimitStore {
  const prefix = options.prefix ?? 'rl:';
  const find = typeof client === 'function' ? client : () => client;
  return {
    async hit(key, windowMs, c): Promise<RateLimitHit> {
      const reply = await find(c).sendCommand(['EVAL', HIT, '1', prefix + key, String(windowMs)]);
      if (!Array.isArray(reply) || reply.length !== 2) throw new TypeError('redisStore: unexpected reply from Redis');
      return { count: Number(reply[0]), resetMs: Number(reply[1]) };
    },
  };
}
