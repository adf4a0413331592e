import type { Context } from '../../core/context.ts';

/** What a store answers for one counted request: the count so far in this window and when the window ends. */
export interface RateLimitHit {
  /** Requests counted for the key in the current window, this one included. */
  count: number;
  /** Milliseconds until the window ends and the count starts again from zero. */
  resetMs: number;
}

/**
 * What a store that keeps no count it can tell answers instead (the Workers Rate Limiting binding,
 * `rateLimitBindingStore()`): only whether this request is within the limit. rateLimit() then sends
 * no remaining count and no reset time (docs/rate-limit.md#what-the-client-sees).
 */
export interface RateLimitVerdict {
  allowed: boolean;
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

/**
 * A store where the platform counts and only says whether a request is within the limit
 * (`rateLimitBindingStore()`): `hit` answers a `RateLimitVerdict`. rateLimit() takes either kind.
 */
export interface RateLimitVerdictStore {
  hit(key: string, windowMs: number, c: Context<any, any>): Promise<RateLimitVerdict> | RateLimitVerdict;
}
