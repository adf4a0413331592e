/// <reference types="@cloudflare/vitest-pool-workers" />
// Runs inside workerd (vitest.workers.config.ts): rateLimit() and timeout() in the Workers runtime itself.
import { env } from 'cloudflare:test';
import { describe, expect, it } from 'vitest';
import { toWorker } from '../../adapters/cloudflare/index.ts';
import { App } from '../../src/index.ts';
import { cache } from '../../src/middleware/cache/index.ts';
import {
  type DurableObjectNamespaceLike,
  durableObjectStore,
  type RateLimitBindingLike,
  rateLimit,
  rateLimitBindingStore,
} from '../../src/middleware/rate-limit/index.ts';
import { timeout, timeoutSignal } from '../../src/middleware/timeout/index.ts';

declare module 'cloudflare:test' {
  interface ProvidedEnv {
    RATE_LIMIT: DurableObjectNamespaceLike;
    LIMITER: RateLimitBindingLike;
  }
}

describe('rate limit and timeout inside workerd', () => {
  it('counts by cf-connecting-ip and answers the fourth request 429 with the RateLimit fields', async () => {
    const app = new App();
    app.use(rateLimit({ window: 60, limit: 3 }));
    app.get('/', (c) => c.text(`hello ${c.req.ip}`));
    // Through the worker entry, as a deployed worker is reached: it gives c.req.ip from cf-connecting-ip.
    const worker = toWorker(app);
    const ctx = { waitUntil() {}, passThroughOnException() {} };
    const get = async (ip: string) => worker.fetch(new Request('http://example.com/', { headers: { 'cf-connecting-ip': ip } }), {}, ctx);
    for (let i = 2; i >= 0; i--) {
      const res = await get('203.0.113.1');
      expect(res.status).toBe(200);
      expect(res.headers.get('ratelimit')).toBe(`"default";r=${i};t=60`);
    }
    const refused = await get('203.0.113.1');
    expect(refused.status).toBe(429);
    expect(refused.headers.get('retry-after')).toBe('60');
    expect(refused.headers.get('content-type')).toBe('application/problem+json');
    expect((await get('203.0.113.2')).status).toBe(200);
  });

  it('answers 504 and aborts the signal at the deadline', async () => {
    const app = new App();
    let reason = '';
    app.use(timeout(30));
    app.get('/', async (c) => {
      const signal = timeoutSignal(c);
      await new Promise<void>((resolve) => {
        signal.addEventListener('abort', () => {
          reason = (signal.reason as DOMException).name;
          resolve();
        });
      });
      return c.text('late');
    });
    const res = await app.request('/');
    expect(res.status).toBe(504);
    expect(reason).toBe('TimeoutError');
  });

  it('durableObjectStore: exact counts in one Durable Object per key, under concurrent requests', async () => {
    const app = new App<{ Bindings: { RATE_LIMIT: DurableObjectNamespaceLike } }>();
    app.use(rateLimit({ window: 60, limit: 5, key: (c) => c.req.header('x-client'), store: durableObjectStore((c) => c.env.RATE_LIMIT) }));
    app.get('/', (c) => c.text('ok'));
    const get = (client: string) => app.request('/', { headers: { 'x-client': client } }, env);
    const statuses = await Promise.all(Array.from({ length: 12 }, () => get('a').then((r) => r.status)));
    expect(statuses.filter((s) => s === 200).length).toBe(5);
    expect(statuses.filter((s) => s === 429).length).toBe(7);
    const other = await get('b');
    expect(other.status).toBe(200);
    expect(other.headers.get('ratelimit')).toBe('"default";r=4;t=60');
  });

  it('rateLimitBindingStore: the Rate Limiting binding decides; only RateLimit-Policy, then 429 with r=0', async () => {
    // test/workerd/wrangler.toml: [[ratelimits]] LIMITER, simple = { limit = 3, period = 60 }.
    const app = new App<{ Bindings: { LIMITER: RateLimitBindingLike } }>();
    app.use(rateLimit({ window: 60, limit: 3, key: (c) => c.req.header('x-client'), store: rateLimitBindingStore((c) => c.env.LIMITER) }));
    app.get('/', (c) => c.text('ok'));
    const get = (client: string) => app.request('/', { headers: { 'x-client': client } }, env);
    for (let i = 0; i < 3; i++) {
      const res = await get('binding-a');
      expect(res.status).toBe(200);
      expect(res.headers.get('ratelimit-policy')).toBe('"default";q=3;w=60');
      // The binding tells no remaining count: no RateLimit field is made up.
      expect(res.headers.get('ratelimit')).toBeNull();
    }
    const refused = await get('binding-a');
    expect(refused.status).toBe(429);
    expect(refused.headers.get('content-type')).toBe('application/problem+json');
    expect(refused.headers.get('ratelimit')).toBe('"default";r=0');
    expect(refused.headers.get('ratelimit-policy')).toBe('"default";q=3;w=60');
    expect(refused.headers.get('retry-after')).toBe('60');
    expect((await get('binding-b')).status).toBe(200);
  });

  it('rateLimitBindingStore: a window the binding cannot have, or no binding, fails closed with 503', async () => {
    const original = console.error;
    const logged: unknown[][] = [];
    console.error = (...args: unknown[]) => void logged.push(args);
    try {
      const wrongWindow = new App();
      wrongWindow.use(rateLimit({ window: 30, limit: 3, store: rateLimitBindingStore((c) => c.env.LIMITER) }));
      wrongWindow.get('/', (c) => c.text('ok'));
      expect((await wrongWindow.request('/', undefined, env)).status).toBe(503);
      const unbound = new App();
      unbound.use(rateLimit({ window: 60, limit: 3, store: rateLimitBindingStore((c) => c.env.MISSING as never) }));
      unbound.get('/', (c) => c.text('ok'));
      expect((await unbound.request('/', undefined, {})).status).toBe(503);
    } finally {
      console.error = original;
    }
    const errors = logged.map((args) => String(args[1]));
    expect(errors.some((e) => /10 or 60/.test(e))).toBe(true);
    expect(errors.some((e) => /no Rate Limiting binding/.test(e))).toBe(true);
  });

  it('durableObjectStore without a binding fails closed with 503', async () => {
    const app = new App();
    app.use(rateLimit({ window: 60, limit: 5, store: durableObjectStore((c) => c.env.MISSING as never) }));
    app.get('/', (c) => c.text('ok'));
    const original = console.error;
    console.error = () => {};
    try {
      expect((await app.request('/', undefined, {})).status).toBe(503);
    } finally {
      console.error = original;
    }
  });

  it('cache() answers repeats from the Workers Cache API, honouring Vary and private', async () => {
    let served = 0;
    const app = new App();
    app.use(cache({ cacheName: 'rove-workerd-test' }));
    app.get('/shared', (c) => c.text(`served ${++served}`, 200, { 'cache-control': 'public, max-age=60', vary: 'accept-language' }));
    app.get('/private', (c) => c.text(`served ${++served}`, 200, { 'cache-control': 'private, max-age=60' }));
    const waits: Promise<unknown>[] = [];
    const ctx = { waitUntil: (p: Promise<unknown>) => void waits.push(p), passThroughOnException() {} };
    const get = async (path: string, lang = 'en') => {
      const res = await app.request(`http://example.com${path}`, { headers: { 'accept-language': lang } }, {}, ctx);
      const text = await res.text();
      await Promise.all(waits.splice(0));
      return { text, age: res.headers.get('age') };
    };
    expect(await get('/shared')).toEqual({ text: 'served 1', age: null });
    expect(await get('/shared')).toEqual({ text: 'served 1', age: '0' });
    expect((await get('/shared', 'fr')).text).toBe('served 2');
    expect((await get('/private')).text).toBe('served 3');
    expect((await get('/private')).text).toBe('served 4');
  });
});
