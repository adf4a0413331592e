import type { RateLimitHit, RateLimitStore } from './store.ts';

export interface MemoryStoreOptions {
  /** Keys (clients) counted at most; when full, the key whose window started longest ago is dropped. Default 10,000. */
  maxKeys?: number;
}

/**
 * Counts in this process's memory: exact for one process, not shared between processes,
 * isolates or machines (see docs/scaling.md for shared stores). Bounded: at most `maxKeys` keys;
 * when a new key arrives and the store is full, the oldest window goes, which forgets that
 * client's count (it starts again from zero). Size `maxKeys` above the clients seen in one window.
 *
 * @example
 * app.use('/api', rateLimit({ window: 60, limit: 100, store: memoryStore({ maxKeys: 50_000 }) }));
 */
export function memoryStore(options: MemoryStoreOptions = {}): RateLimitStore {
  const maxKeys = options.maxKeys ?? 10_000;
  if (!Number.isInteger(maxKeys) || maxKeys < 1) throw new RangeError('rate-limit memoryStore: maxKeys must be a whole number of at least 1');
  // Map order is insertion order, and a key is re-inserted when its window starts: the first key is the oldest window.
  const windows = new Map<string, { count: number; ends: number }>();
  let lastSweep = 0;
  return {
    hit(key, windowMs): RateLimitHit {
      const now = Date.now();
      const entry = windows.get(key);
      if (entry !== undefined && entry.ends > now) {
        entry.count++;
        return { count: entry.count, resetMs: entry.ends - now };
      }
      if (entry !== undefined) windows.delete(key);
      if (windows.size >= maxKeys) {
        // Ended windows go first (a full scan at most once a second); then the oldest ones.
        if (now - lastSweep >= 1000) {
          lastSweep = now;
          for (const [k, e] of windows) if (e.ends <= now) windows.delete(k);
        }
        for (const k of windows.keys()) {
          if (windows.size < maxKeys) break;
          windows.delete(k);
        }
      }
      windows.set(key, { count: 1, ends: now + windowMs });
      return { count: 1, resetMs: windowMs };
    },
  };
}
