import type { Context } from '../../core/context.ts';
import type { SessionStore } from './store.ts';

/**
 * The one method of a Redis client the store uses: send a command, get its reply. node-redis
 * (`createClient()`) has it as is; for ioredis pass `{ sendCommand: (args) => redis.call(args[0], ...args.slice(1)) }`.
 */
export interface RedisLike {
  sendCommand(args: string[]): Promise<unknown>;
}

export interface RedisStoreOptions {
  /** Prepended to every key, so one Redis database can hold other data too. Default `session:`. */
  prefix?: string;
  /** Largest value kept, in UTF-16 code units; a larger session is an error. Default 64 KiB. */
  maxValueSize?: number;
}

/**
 * Sessions in Redis, shared by every process and machine that uses the same server: a login
 * on one is seen by all, and `destroy()` ends the session everywhere at once. Redis expires
 * each session at its max age (SET … PX), so nothing has to sweep. Give a connected client,
 * or a function that finds it on the context. When Redis is down, requests that touch the
 * session fail with 500 (the error is logged); see docs/scaling.md.
 *
 * @example
 * import { createClient } from 'redis';
 * const redis = await createClient({ url: process.env.REDIS_URL }).connect();
 * app.use(session({ keys: [process.env.SESSION_SECRET!], store: redisStore(redis) }));
 */
export function redisStore(client: RedisLike | ((c: Context<any, any>) => RedisLike), options: RedisStoreOptions = {}): SessionStore {
  const prefix = options.prefix ?? 'session:';
  const maxValueSize = options.maxValueSize ?? 64 * 1024;
  if (!(maxValueSize > 0)) throw new RangeError('redisStore: maxValueSize must be a positive number');
  const find = typeof client === 'function' ? client : () => client;
  return {
    async get(id, c) {
      const value = await find(c).sendCommand(['GET', prefix + id]);
      if (value === null || value === undefined) return null;
      if (typeof value !== 'string') throw new TypeError('redisStore: unexpected reply from Redis');
      return value;
    },
    async set(id, value, maxAge, c) {
      if (value.length > maxValueSize) throw new RangeError(`Session is ${value.length} bytes, over the Redis store's maxValueSize of ${maxValueSize}`);
      await find(c).sendCommand(['SET', prefix + id, value, 'PX', String(Math.max(1, Math.ceil(maxAge * 1000)))]);
    },
    async delete(id, c) {
      await find(c).sendCommand(['DEL', prefix + id]);
    },
  };
}
