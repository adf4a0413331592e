// Shared counts on Deno Deploy: Deno KV, with an atomic check-and-set so concurrent isolates
// never lose a count.
import type { Context } from '../../core/context.ts';
import type { RateLimitHit, RateLimitStore } from './store.ts';

/**
 * The part of a Deno KV handle (what `await Deno.openKv()` gives) the store uses.
 */
export interface DenoKvLike {
  get<T>(key: readonly unknown[]): Promise<{ value: T | null; versionstamp: string | null }>;
  atomic(): DenoKvAtomicLike;
}

export interface DenoKvAtomicLike {
  check(...checks: { key: readonly unknown[]; versionstamp: string | null }[]): DenoKvAtomicLike;
  set(key: readonly unknown[], value: unknown, options?: { expireIn?: number }): DenoKvAtomicLike;
  commit(): Promise<{ ok: boolean }>;
}

export interface DenoKvStoreOptions {
  /** The first part of every key. Default `rove-rate-limit`. */
  prefix?: string;
  /** Attempts of the check-and-set when other isolates write the same key at once (with a random, growing pause between them). Default 16. */
  maxAttempts?: number;
}

interface Window {
  count: number;
  ends: number;
}

/**
 * Counts in Deno KV (Deno Deploy, or `Deno.openKv()` anywhere Deno runs): exact, shared by every
 * isolate and region that opens the same database. Each hit is a read and an atomic
 * check-and-set, retried when another isolate wrote the key in between; windows are written
 * with `expireIn`, so KV deletes them. Give the KV handle, or a function that finds it.
 *
 * @example
 * import { denoKvStore, rateLimit } from 'rove/rate-limit';
 * const kv = await Deno.openKv();
 * app.use('/api', rateLimit({ window: 60, limit: 100, store: denoKvStore(kv) }));
 */
export function denoKvStore(kv: DenoKvLike | ((c: Context<any, any>) => DenoKvLike), options: DenoKvStoreOptions = {}): RateLimitStore {
  const prefix = options.prefix ?? 'rove-rate-limit';
  const maxAttempts = options.maxAttempts ?? 16;
  if (!Number.isInteger(maxAttempts) || maxAttempts < 1) throw new RangeError('denoKvStore: maxAttempts is a whole number of at least 1');
  const find = typeof kv === 'function' ? kv : () => kv;
  return {
    async hit(key, windowMs, c): Promise<RateLimitHit> {
      const db = find(c);
      const k = [prefix, key];
      for (let attempt = 0; attempt < maxAttempts; attempt++) {
        const entry = await db.get<Window>(k);
        const now = Date.now();
        const old = entry.value;
        // KV deletes expired entries lazily: an ended window read back starts a new one.
        const window = old === null || old.ends <= now ? { count: 1, ends: now + windowMs } : { count: old.count + 1, ends: old.ends };
        const result = await db
          .atomic()
          .check({ key: k, versionstamp: entry.versionstamp })
          .set(k, window, { expireIn: window.ends - now })
          .commit();
        if (result.ok) return { count: window.count, resetMs: window.ends - now };
        // Lost the race: wait a random moment, growing with each try, so the racers spread out.
        await new Promise((resolve) => setTimeout(resolve, Math.random() * 2 ** Math.min(attempt, 6)));
      }
      throw new Error(`denoKvStore: the count for a key changed under ${maxAttempts} attempts in a row`);
    },
  };
}
