// The Workers Rate Limiting binding as a store: the platform counts (approximately, per
// Cloudflare location) with the limit and period set in wrangler config; it answers only
// whether a key is still within its limit, so the limiter can tell the client no remaining count.
import type { Context } from '../../core/context.ts';
import type { RateLimitVerdict, RateLimitVerdictStore } from './store.ts';

/** The part of a Workers Rate Limiting binding the store uses (`env.MY_LIMITER`). */
export interface RateLimitBindingLike {
  limit(options: { key: string }): Promise<{ success: boolean }>;
}

/** The periods the Rate Limiting binding accepts, in seconds. */
const PERIODS = [10, 60];

/**
 * Counts with the Workers Rate Limiting binding (Cloudflare Workers): the platform keeps the
 * counts, with the `limit` and `period` of the binding's `simple` setting in wrangler config, per
 * Cloudflare location and approximately (see docs/scaling.md). Give the binding, or a function that
 * finds it on the context (bindings arrive with each request).
 *
 * The binding answers only success or failure, so the limiter cannot say how many requests
 * remain or when the window ends: answers it lets through carry `RateLimit-Policy` (from
 * rateLimit's `window` and `limit`, which must be the binding's `period` and `limit`) and no
 * `RateLimit`; a refused one is 429 with `RateLimit: "<name>";r=0` and `Retry-After: <window>`.
 * rateLimit's `window` must be 10 or 60, the periods the binding has.
 *
 * @example
 * // wrangler.toml
 * // [[ratelimits]]
 * // name = "LIMITER"
 * // namespace_id = "1001"
 * // simple = { limit = 100, period = 60 }
 * import { rateLimit, rateLimitBindingStore } from 'rove/rate-limit';
 * app.use('/api', rateLimit({ window: 60, limit: 100, store: rateLimitBindingStore((c) => c.env.LIMITER) }));
 */
export function rateLimitBindingStore(binding: RateLimitBindingLike | ((c: Context<any, any>) => RateLimitBindingLike)): RateLimitVerdictStore {
  const find = typeof binding === 'function' ? binding : () => binding;
  return {
    async hit(key, windowMs, c): Promise<RateLimitVerdict> {
      if (!PERIODS.includes(windowMs / 1000))
        throw new RangeError(`rateLimitBindingStore: the binding's period is 10 or 60 s; rateLimit's window is ${windowMs / 1000} s`);
      const limiter = find(c);
      if (limiter === undefined || limiter === null || typeof limiter.limit !== 'function')
        throw new Error('rateLimitBindingStore: no Rate Limiting binding; add [[ratelimits]] to wrangler config and pass it, e.g. (c) => c.env.LIMITER');
      const outcome = await limiter.limit({ key });
      if (typeof outcome?.success !== 'boolean') throw new TypeError('rateLimitBindingStore: the binding answered without success');
      return { allowed: outcome.success };
    },
  };
}
