import type { Context } from '../../context.ts';

/** What a store answers for one counted request: the count so far in this window and when the window ends. */
export interface RateLimitHit {
  /** Requests counted for the key in the current window, this one included. */
  count: number;
  /** Milliseconds until the window ends and the count starts again from zero. */
  resetMs: number;
}

/**
 * Where rate-limit counts live. One method: count a request for `key` in a fixed window of
 * `windowMs` milliseconds that starts with the key's first request, and say the count and the
 * time left. `memoryStore()` (one process) and `redisStore()` (shared) implement it; a store
 * that throws or rejects is handled by rateLimit's `onStoreError`.
 */
export interface RateLimitStore {
  hit(key: string, windowMs: number, c: Context<any, any>): Promise<RateLimitHit> | RateLimitHit;
}
