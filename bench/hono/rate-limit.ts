// The `rate-limited` scenario's Hono side: the npm package hono-rate-limiter, its
// `rateLimiter` with its own MemoryStore, set to Rove's bench route (examples/bench/app-layer.ts):
// a fixed window of RATE_WINDOW_S seconds per key that starts with the key's first request,
// RATE_LIMIT requests in it, the key the client address. Rove's default for a request with no
// address (missingKey 'share') counts all of them under one key; '' does the same here.
//
// Headers: hono-rate-limiter's 'draft-7' mode sends two fields as Rove does (RateLimit-Policy and
// RateLimit), in that draft's syntax (`1000000;w=60`, `limit=…, remaining=…, reset=…`) where Rove
// sends the later draft's structured fields; 'draft-6' would send four. The check accepts each
// framework's own syntax (bench/lib/scenarios-app.ts).
//
// Workers: hono-rate-limiter's MemoryStore starts a setInterval in its init(), which runs when
// rateLimiter() is called; workerd forbids timers in a Worker's global scope, so the limiter
// cannot be made at module scope there and the workerd row is left out for Hono.
import type { Context, Hono } from 'hono';
import { MemoryStore, rateLimiter } from 'hono-rate-limiter';
import { RATE_LIMIT, RATE_WINDOW_S } from '../shared/app-layer.ts';

/** GET /limited under a limit of 1,000,000 per minute keyed by client address. */
export function addRateLimited(app: Hono<any>, address: (c: Context) => string | undefined): void {
  const limiter = rateLimiter({
    windowMs: RATE_WINDOW_S * 1000,
    limit: RATE_LIMIT,
    standardHeaders: 'draft-7',
    keyGenerator: (c) => address(c) ?? '',
    store: new MemoryStore(),
  });
  app.get('/limited', limiter, (c) => c.json({ ok: true }));
}
