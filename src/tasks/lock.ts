// Once per tick across machines: each process that sees a tick asks the lock store for it, and
// only the one that gets it runs the task. The key names the task and the tick's scheduled
// minute, so clocks a few seconds apart still ask for the same key.

/** Where the processes that run an app's tasks agree on who runs a tick. */
export interface TaskLock {
  /** True for exactly one caller per key until `ttlMs` has passed. */
  acquire(key: string, ttlMs: number): Promise<boolean>;
}

/** The one method of a Redis client the lock uses, as rove/cache's and rove/session's stores. */
export interface RedisLike {
  sendCommand(args: string[]): Promise<unknown>;
}

/**
 * A lock in Redis (`SET key value NX PX ttl`), shared by every process and machine that uses the
 * same server. node-redis (`createClient()`) has `sendCommand` as is; for ioredis pass
 * `{ sendCommand: (args) => redis.call(args[0], ...args.slice(1)) }`.
 *
 * @example
 * import { createClient } from 'redis';
 * import { redisLock, tasks } from 'rove/tasks';
 * const redis = await createClient({ url: process.env.REDIS_URL }).connect();
 * const jobs = tasks({ lock: redisLock(redis) });
 */
export function redisLock(redis: RedisLike, options: { prefix?: string } = {}): TaskLock {
  const prefix = options.prefix ?? 'task:';
  return {
    async acquire(key, ttlMs) {
      const reply = await redis.sendCommand(['SET', prefix + key, String(Date.now()), 'NX', 'PX', String(Math.max(1, Math.ceil(ttlMs)))]);
      return reply === 'OK';
    },
  };
}

/** The part of a Deno KV (what Deno's `openKv()` gives) the lock uses. */
export interface KvLike {
  atomic(): {
    check(...checks: { key: unknown[]; versionstamp: string | null }[]): unknown;
    set(key: unknown[], value: unknown, options?: { expireIn?: number }): unknown;
    commit(): Promise<{ ok: boolean }>;
  };
}

/**
 * A lock in Deno KV: an atomic write that succeeds only while the key is absent. On Deno Deploy
 * one KV serves every isolate; locally, processes that open the same file share it.
 *
 * @example
 * import { kvLock, tasks } from 'rove/tasks';
 * const jobs = tasks({ lock: kvLock(await Deno.openKv()) });
 */
export function kvLock(kv: KvLike, options: { prefix?: string } = {}): TaskLock {
  const prefix = options.prefix ?? 'task';
  return {
    async acquire(key, ttlMs) {
      const k = [prefix, key];
      const op = kv.atomic() as { check(c: unknown): typeof op; set(k: unknown[], v: unknown, o?: unknown): typeof op; commit(): Promise<{ ok: boolean }> };
      const result = await op
        .check({ key: k, versionstamp: null })
        .set(k, Date.now(), { expireIn: Math.max(1, Math.ceil(ttlMs)) })
        .commit();
      return result.ok;
    },
  };
}
