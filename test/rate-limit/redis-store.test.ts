// The Redis stores (rate limit and session) against a real redis-server on a free loopback port.
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { type RedisServer, redisSkipReason, startRedis } from '../../dev/redis.ts';
import { RespClient } from '../../dev/resp.ts';
import { App } from '../../src/index.ts';
import { cache, redisCache } from '../../src/middleware/cache/index.ts';
import { rateLimit, redisStore } from '../../src/middleware/rate-limit/index.ts';
import { getSession, redisStore as redisSessionStore, session } from '../../src/middleware/session/index.ts';

const skip = redisSkipReason();
const SECRET = 'redis-store-test-secret-0123456789abcdef';

describe.skipIf(skip !== null)(`Redis stores${skip ? ` (skipped: ${skip})` : ''}`, () => {
  let server: RedisServer;
  let client: RespClient;
  beforeAll(async () => {
    server = await startRedis();
    client = await RespClient.connect(server.port);
  }, 30_000);
  afterAll(async () => {
    client?.close();
    await server?.stop();
  });

  it('rate limit: counts exactly across concurrent requests, and Redis expires the window', async () => {
    const store = redisStore(client, { prefix: 'rl-test:' });
    const c = undefined as never;
    const hits = await Promise.all(Array.from({ length: 50 }, () => store.hit('k', 500, c)));
    expect(hits.map((h) => h.count).sort((a, b) => a - b)).toEqual(Array.from({ length: 50 }, (_, i) => i + 1));
    for (const h of hits) expect(h.resetMs).toBeGreaterThan(0);
    expect(await client.sendCommand(['PTTL', 'rl-test:k'])).toBeGreaterThan(0);
    await new Promise((r) => setTimeout(r, 600));
    expect(await client.sendCommand(['EXISTS', 'rl-test:k'])).toBe(0);
    expect((await store.hit('k', 500, c)).count).toBe(1);
  });

  it('rate limit: the middleware over Redis answers 429 after the limit, with Retry-After from the key TTL', async () => {
    const app = new App();
    app.use(rateLimit({ window: 30, limit: 2, key: () => 'client-1', store: redisStore(client) }));
    app.get('/', (c) => c.text('ok'));
    expect((await app.request('/')).status).toBe(200);
    const second = await app.request('/');
    expect(second.headers.get('ratelimit')).toBe('"default";r=0;t=30');
    const refused = await app.request('/');
    expect(refused.status).toBe(429);
    expect(refused.headers.get('retry-after')).toBe('30');
    expect(await client.sendCommand(['GET', 'rl:default:client-1'])).toBe('3');
  });

  it('cache: a copy is shared by two apps, expires with its freshness, and a write through either forgets it', async () => {
    let version = 1;
    const make = () => {
      const app = new App();
      app.use(cache({ store: redisCache(client, { prefix: 'cache-test:' }) }));
      app.get('/thing', (c) => c.json({ version }, 200, { 'cache-control': 'public, max-age=2' }));
      app.put('/thing', (c) => c.json({ version: ++version }));
      return app;
    };
    const [one, two] = [make(), make()];
    const read = async (app: App) => {
      const res = await app.request('/thing');
      const body = await res.json();
      await new Promise((r) => setTimeout(r, 30)); // the copy is stored after the answer
      return { body, age: res.headers.get('age') };
    };
    expect(await read(one)).toEqual({ body: { version: 1 }, age: null });
    expect(await read(two)).toEqual({ body: { version: 1 }, age: '0' }); // the other app's copy
    const ttl = Number(await client.sendCommand(['PTTL', 'cache-test:http://localhost/thing']));
    expect(ttl).toBeGreaterThan(0);
    expect(ttl).toBeLessThanOrEqual(2000);
    expect((await two.request('/thing', { method: 'PUT' })).status).toBe(200);
    expect(await client.sendCommand(['EXISTS', 'cache-test:http://localhost/thing'])).toBe(0);
    expect((await read(one)).body).toEqual({ version: 2 });
  });

  it('session: saved with an expiry, read back, and deleted everywhere by destroy()', async () => {
    const app = new App();
    app.use(session({ keys: [SECRET], store: redisSessionStore(client), maxAge: 60 }));
    app.post('/login', async (c) => {
      await getSession(c).regenerate();
      await getSession(c).set('user', 'ann');
      return c.text('in');
    });
    app.get('/me', async (c) => c.text(String((await getSession(c).get('user')) ?? 'nobody')));
    app.post('/logout', async (c) => {
      await getSession(c).destroy();
      return c.text('out');
    });
    const login = await app.request('/login', { method: 'POST' });
    const cookie = login.headers.get('set-cookie')!.split(';')[0];
    const keys = (await client.sendCommand(['KEYS', 'session:*'])) as string[];
    expect(keys.length).toBe(1);
    const ttl = (await client.sendCommand(['PTTL', keys[0]])) as number;
    expect(ttl).toBeGreaterThan(50_000);
    expect(ttl).toBeLessThanOrEqual(60_000);
    expect(await (await app.request('/me', { headers: { cookie } })).text()).toBe('ann');
    await app.request('/logout', { method: 'POST', headers: { cookie } });
    expect(await client.sendCommand(['KEYS', 'session:*'])).toEqual([]);
    expect(await (await app.request('/me', { headers: { cookie } })).text()).toBe('nobody');
  });

  it('Redis down: the rate limit fails closed (503) or open as configured, never by accident', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => {});
    const own = await startRedis();
    const lost = await RespClient.connect(own.port);
    await own.stop();
    const closed = new App();
    closed.use(rateLimit({ window: 60, limit: 1, store: redisStore(lost), key: () => 'k' }));
    closed.get('/', (c) => c.text('ok'));
    expect((await closed.request('/')).status).toBe(503);
    const open = new App();
    open.use(rateLimit({ window: 60, limit: 1, store: redisStore(lost), key: () => 'k', onStoreError: 'open' }));
    open.get('/', (c) => c.text('ok'));
    expect((await open.request('/')).status).toBe(200);
    expect((await open.request('/')).status).toBe(200);
    vi.restoreAllMocks();
  }, 30_000);
});
