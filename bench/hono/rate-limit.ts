// The `rate-limited` scenario's Hono side. BENCH.md asks for the npm package hono-rate-limiter with
// its memory store; it is not installed in this tree (and may not be added), so this is a
// hand-written stand-in doing the same work: a fixed window per key counted in a Map, and the
// same RateLimit / RateLimit-Policy fields Rove sends. The key is the client address from Hono's
// getConnInfo for the runtime, passed in by the entry (hono-rate-limiter's keyGenerator).
import type { Context, Hono, MiddlewareHandler } from 'hono';
import { RATE_LIMIT, RATE_WINDOW_S } from '../shared/app-layer.ts';

export interface FixedWindowOptions {
  limit: number;
  /** Window in seconds. */
  window: number;
  keyGenerator: (c: Context) => string;
}

export function fixedWindowLimiter(o: FixedWindowOptions): MiddlewareHandler {
  const windowMs = o.window * 1000;
  const policy = `"default";q=${o.limit};w=${o.window}`;
  const hits = new Map<string, { count: number; resetAt: number }>();
  return async (c, next) => {
    const key = o.keyGenerator(c);
    const now = Date.now();
    let entry = hits.get(key);
    if (entry === undefined || entry.resetAt <= now) {
      entry = { count: 0, resetAt: now + windowMs };
      hits.set(key, entry);
    }
    entry.count++;
    const reset = Math.max(0, Math.ceil((entry.resetAt - now) / 1000));
    const state = `"default";r=${Math.max(0, o.limit - entry.count)};t=${reset}`;
    if (entry.count > o.limit) {
      return c.json({ title: 'Too Many Requests', status: 429 }, 429, { 'retry-after': String(reset), 'ratelimit-policy': policy, ratelimit: state });
    }
    c.header('ratelimit-policy', policy);
    c.header('ratelimit', state);
    await next();
  };
}

/** GET /limited under a limit of 1,000,000 per minute keyed by client address. */
export function addRateLimited(app: Hono<any>, address: (c: Context) => string | undefined): void {
  const limiter = fixedWindowLimiter({ limit: RATE_LIMIT, window: RATE_WINDOW_S, keyGenerator: (c) => address(c) ?? '' });
  app.get('/limited', limiter, (c) => c.json({ ok: true }));
}
