import { afterEach, describe, expect, it, vi } from 'vitest';
import { trustProxy } from '../../src/http/trust-proxy.ts';
import { App } from '../../src/index.ts';
import { memoryStore, type RateLimitOptions, type RateLimitStore, rateLimit, rateLimitBindingStore } from '../../src/middleware/rate-limit/index.ts';

/** An app bound like an adapter would, so each request carries a peer address. */
function makeApp(options: RateLimitOptions, appOptions: ConstructorParameters<typeof App>[0] = {}) {
  const app = new App(appOptions);
  const handle = app.bind({ address: (_request, info) => info as string | undefined });
  app.use('/api', rateLimit(options));
  app.get('/api', (c) => c.text(`hello ${c.req.ip}`));
  app.get('/free', (c) => c.text('free'));
  return (path: string, ip: string | undefined, headers: Record<string, string> = {}) =>
    handle(new Request(`http://localhost${path}`, { headers }), undefined, undefined, ip) as Promise<Response>;
}

afterEach(() => {
  vi.useRealTimers();
  vi.restoreAllMocks();
});

describe('rateLimit', () => {
  it('lets `limit` requests through per window, then answers 429 problem+json with Retry-After', async () => {
    const get = makeApp({ window: 60, limit: 3 });
    for (let i = 0; i < 3; i++) expect((await get('/api', '10.0.0.1')).status).toBe(200);
    const refused = await get('/api', '10.0.0.1');
    expect(refused.status).toBe(429);
    expect(refused.headers.get('content-type')).toBe('application/problem+json');
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(58);
    const problem = (await refused.json()) as { status: number; title: string };
    expect(problem.status).toBe(429);
    expect(problem.title).toBe('Too Many Requests');
    // Another client has its own count; routes outside the scope are not counted.
    expect((await get('/api', '10.0.0.2')).status).toBe(200);
    expect((await get('/free', '10.0.0.1')).status).toBe(200);
  });

  it('sends RateLimit-Policy and RateLimit in the draft structured-field syntax', async () => {
    const get = makeApp({ window: 60, limit: 2, name: 'api' });
    const first = await get('/api', '10.0.0.1');
    expect(first.headers.get('ratelimit-policy')).toBe('"api";q=2;w=60');
    expect(first.headers.get('ratelimit')).toBe('"api";r=1;t=60');
    expect((await get('/api', '10.0.0.1')).headers.get('ratelimit')).toBe('"api";r=0;t=60');
    const refused = await get('/api', '10.0.0.1');
    expect(refused.headers.get('ratelimit')).toBe('"api";r=0;t=60');
    expect(refused.headers.get('ratelimit-policy')).toBe('"api";q=2;w=60');
  });

  it('starts a new window when the old one ends', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    const get = makeApp({ window: 10, limit: 1 });
    expect((await get('/api', '10.0.0.1')).status).toBe(200);
    vi.advanceTimersByTime(4000);
    const refused = await get('/api', '10.0.0.1');
    expect(refused.status).toBe(429);
    expect(refused.headers.get('retry-after')).toBe('6');
    vi.advanceTimersByTime(6000);
    expect((await get('/api', '10.0.0.1')).status).toBe(200);
  });

  it('counts by the address trustProxy gives (X-Forwarded-For from a trusted proxy)', async () => {
    const get = makeApp({ window: 60, limit: 1 }, { trustProxy: trustProxy(['127.0.0.1']) });
    expect((await get('/api', '127.0.0.1', { 'x-forwarded-for': '203.0.113.1' })).status).toBe(200);
    expect((await get('/api', '127.0.0.1', { 'x-forwarded-for': '203.0.113.2' })).status).toBe(200);
    expect((await get('/api', '127.0.0.1', { 'x-forwarded-for': '203.0.113.1' })).status).toBe(429);
  });

  it('counts by a key function, hashing long keys', async () => {
    const seen: string[] = [];
    const store = memoryStore();
    const spy: RateLimitStore = {
      hit: (key, ms, c) => {
        seen.push(key);
        return store.hit(key, ms, c);
      },
    };
    const get = makeApp({ window: 60, limit: 1, key: (c) => c.req.header('x-user'), store: spy });
    expect((await get('/api', '10.0.0.1', { 'x-user': 'ann' })).status).toBe(200);
    expect((await get('/api', '10.0.0.1', { 'x-user': 'bob' })).status).toBe(200);
    expect((await get('/api', '10.0.0.2', { 'x-user': 'ann' })).status).toBe(429);
    await get('/api', '10.0.0.1', { 'x-user': 'x'.repeat(5000) });
    expect(seen.slice(0, 2)).toEqual(['default:ann', 'default:bob']);
    expect(seen[3]).toMatch(/^default:#[0-9a-f]{64}$/);
  });

  describe('a request with no key', () => {
    it("'share' (the default) counts all keyless requests under one limit", async () => {
      const get = makeApp({ window: 60, limit: 2 });
      expect((await get('/api', undefined)).status).toBe(200);
      expect((await get('/api', undefined)).status).toBe(200);
      expect((await get('/api', undefined)).status).toBe(429);
      expect((await get('/api', '10.0.0.1')).status).toBe(200);
    });

    it("'allow' lets them through uncounted, without RateLimit fields", async () => {
      const get = makeApp({ window: 60, limit: 1, missingKey: 'allow' });
      for (let i = 0; i < 3; i++) {
        const res = await get('/api', undefined);
        expect(res.status).toBe(200);
        expect(res.headers.get('ratelimit')).toBeNull();
      }
    });

    it("'reject' answers 500 and logs it", async () => {
      const error = vi.spyOn(console, 'error').mockImplementation(() => {});
      const get = makeApp({ window: 60, limit: 1, missingKey: 'reject' });
      expect((await get('/api', undefined)).status).toBe(500);
      expect(error.mock.calls.some((args) => String(args[0]).includes('gave no key'))).toBe(true);
      expect(error.mock.calls).toHaveLength(1);
    });
  });

  describe('a failing store', () => {
    const broken: RateLimitStore = {
      hit: () => Promise.reject(new Error('connection refused')),
    };
    const hanging: RateLimitStore = { hit: () => new Promise(() => {}) };

    it('fails closed by default: 503, and the error is logged once a minute, not per request', async () => {
      const error = vi.spyOn(console, 'error').mockImplementation(() => {});
      const get = makeApp({ window: 60, limit: 5, store: broken });
      const res = await get('/api', '10.0.0.1');
      expect(res.status).toBe(503);
      expect(res.headers.get('retry-after')).toBe('1');
      expect(await res.text()).not.toContain('connection refused');
      await get('/api', '10.0.0.1');
      expect(error.mock.calls.filter((args) => String(args[0]).includes('store error')).length).toBe(1);
      // Nothing else: the 503 itself is not reported again per request by the app's error log.
      expect(error.mock.calls).toHaveLength(1);
    });

    it("fails open only when asked: 'open' lets the request through uncounted", async () => {
      vi.spyOn(console, 'error').mockImplementation(() => {});
      const get = makeApp({ window: 60, limit: 1, store: broken, onStoreError: 'open' });
      for (let i = 0; i < 3; i++) expect((await get('/api', '10.0.0.1')).status).toBe(200);
    });

    it('a store that does not answer within storeTimeout counts as failed', async () => {
      vi.spyOn(console, 'error').mockImplementation(() => {});
      const closed = makeApp({ window: 60, limit: 1, store: hanging, storeTimeout: 20 });
      expect((await closed('/api', '10.0.0.1')).status).toBe(503);
      const open = makeApp({ window: 60, limit: 1, store: hanging, storeTimeout: 20, onStoreError: 'open' });
      expect((await open('/api', '10.0.0.1')).status).toBe(200);
    });

    it('a store that answers nonsense counts as failed', async () => {
      vi.spyOn(console, 'error').mockImplementation(() => {});
      const get = makeApp({ window: 60, limit: 1, store: { hit: async () => ({}) as never } });
      expect((await get('/api', '10.0.0.1')).status).toBe(503);
    });
  });

  it('a store that answers at once is used without a timer; one that throws or answers nonsense at once fails as an async one does', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => {});
    const timers = vi.spyOn(globalThis, 'setTimeout');
    const get = makeApp({ window: 60, limit: 2, store: memoryStore() });
    expect((await get('/api', '10.0.0.1')).status).toBe(200);
    expect((await get('/api', '10.0.0.1')).status).toBe(200);
    expect((await get('/api', '10.0.0.1')).status).toBe(429);
    expect(timers).not.toHaveBeenCalled();
    timers.mockRestore();
    const throwing = makeApp({
      window: 60,
      limit: 1,
      store: {
        hit: () => {
          throw new Error('down');
        },
      },
    });
    expect((await throwing('/api', '10.0.0.1')).status).toBe(503);
    const openThrowing = makeApp({
      window: 60,
      limit: 1,
      store: {
        hit: () => {
          throw new Error('down');
        },
      },
      onStoreError: 'open',
    });
    expect((await openThrowing('/api', '10.0.0.1')).status).toBe(200);
    const nonsense = makeApp({ window: 60, limit: 1, store: { hit: () => ({}) as never } });
    expect((await nonsense('/api', '10.0.0.1')).status).toBe(503);
  });

  it('refuses bad options at registration', () => {
    expect(() => rateLimit({ window: 0, limit: 1 })).toThrow(RangeError);
    expect(() => rateLimit({ window: 1.5, limit: 1 })).toThrow(RangeError);
    expect(() => rateLimit({ window: 60, limit: 0 })).toThrow(RangeError);
    expect(() => rateLimit({ window: 60, limit: 1, name: 'a"b' })).toThrow(TypeError);
    expect(() => rateLimit({ window: 60, limit: 1, onStoreError: 'maybe' as never })).toThrow(TypeError);
    expect(() => rateLimit({ window: 60, limit: 1, missingKey: 'ignore' as never })).toThrow(TypeError);
  });
});

describe('rate-limit memoryStore', () => {
  it('keeps at most maxKeys keys, dropping the oldest window first', async () => {
    const store = memoryStore({ maxKeys: 2 });
    const c = undefined as never;
    expect(store.hit('a', 60_000, c)).toEqual({ count: 1, resetMs: 60_000 });
    store.hit('b', 60_000, c);
    expect((store.hit('a', 60_000, c) as { count: number }).count).toBe(2);
    store.hit('c', 60_000, c); // full: 'a' (the oldest window) goes
    expect((store.hit('b', 60_000, c) as { count: number }).count).toBe(2);
    expect((store.hit('a', 60_000, c) as { count: number }).count).toBe(1);
  });

  it('refuses a maxKeys that is not a whole number of at least 1', () => {
    expect(() => memoryStore({ maxKeys: 0 })).toThrow(RangeError);
    expect(() => memoryStore({ maxKeys: 1.5 })).toThrow(RangeError);
  });
});

describe('rateLimit with a store that only decides (rateLimitBindingStore)', () => {
  /** A stand-in for the Workers Rate Limiting binding: lets `limit` keys through, then refuses. */
  function fakeBinding(limit: number) {
    const seen = new Map<string, number>();
    const keys: string[] = [];
    return {
      keys,
      async limit({ key }: { key: string }) {
        keys.push(key);
        const n = (seen.get(key) ?? 0) + 1;
        seen.set(key, n);
        return { success: n <= limit };
      },
    };
  }

  it('sends RateLimit-Policy only while allowed, and 429 with r=0 and Retry-After of the window when refused', async () => {
    const binding = fakeBinding(2);
    const get = makeApp({ window: 10, limit: 2, name: 'api', store: rateLimitBindingStore(binding) });
    for (let i = 0; i < 2; i++) {
      const res = await get('/api', '10.0.0.1');
      expect(res.status).toBe(200);
      expect(res.headers.get('ratelimit-policy')).toBe('"api";q=2;w=10');
      expect(res.headers.get('ratelimit')).toBeNull();
    }
    const refused = await get('/api', '10.0.0.1');
    expect(refused.status).toBe(429);
    expect(refused.headers.get('ratelimit')).toBe('"api";r=0');
    expect(refused.headers.get('retry-after')).toBe('10');
    expect(binding.keys).toEqual(['api:10.0.0.1', 'api:10.0.0.1', 'api:10.0.0.1']);
  });

  it('headers: false sends nothing while allowed; a binding that throws fails closed or open as asked', async () => {
    const quiet = makeApp({ window: 60, limit: 5, headers: false, store: rateLimitBindingStore(fakeBinding(5)) });
    expect((await quiet('/api', '10.0.0.1')).headers.get('ratelimit-policy')).toBeNull();
    vi.spyOn(console, 'error').mockImplementation(() => {});
    const broken = { limit: async () => Promise.reject(new Error('down')) };
    expect((await makeApp({ window: 60, limit: 5, store: rateLimitBindingStore(broken) })('/api', '10.0.0.1')).status).toBe(503);
    expect((await makeApp({ window: 60, limit: 5, onStoreError: 'open', store: rateLimitBindingStore(broken) })('/api', '10.0.0.1')).status).toBe(200);
    const odd = { limit: async () => ({}) as { success: boolean } };
    expect((await makeApp({ window: 60, limit: 5, store: rateLimitBindingStore(odd) })('/api', '10.0.0.1')).status).toBe(503);
  });
});

describe('rateLimit > a store from the context', () => {
  it('counts in the store a function gives for each request', async () => {
    const stores = { a: memoryStore(), b: memoryStore() };
    const app = new App<{ Bindings: { STORE: 'a' | 'b' } }>();
    app.use(rateLimit({ window: 60, limit: 1, key: () => 'one-client', store: (c) => stores[c.env.STORE] }));
    app.get('/', (c) => c.text('ok'));
    expect((await app.request('/', undefined, { STORE: 'a' })).status).toBe(200);
    expect((await app.request('/', undefined, { STORE: 'a' })).status).toBe(429);
    // The same client, counted in the other store: its first request.
    expect((await app.request('/', undefined, { STORE: 'b' })).status).toBe(200);
  });
});
