// cache() on a stand-in Cache API (a Map by URL, as the Cache API keys by URL); the real ones
// run in test/rate-limit/http.test.ts (Deno, deno serve) and test/workerd/rate-limit.test.ts.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { App, type Context } from '../../../src/index.ts';
import { cache, memoryCache } from '../../../src/middleware/cache/index.ts';
import { WriteOrder } from '../../../src/middleware/cache/write-order.ts';

let stored: Map<string, Response>;
beforeEach(() => {
  stored = new Map();
  const store = {
    match: async (request: Request) => stored.get(request.url)?.clone(),
    put: async (request: Request, response: Response) => {
      stored.set(request.url, response);
    },
    delete: async (request: Request) => stored.delete(request.url),
  };
  vi.stubGlobal('caches', { open: async () => store });
});
afterEach(() => {
  vi.unstubAllGlobals();
  vi.useRealTimers();
});

/** Waits for the background put (waitUntil) to finish. */
const settle = () => new Promise((r) => setTimeout(r, 10));

function makeApp(headers: Record<string, string>, options: Parameters<typeof cache>[0] = {}) {
  const app = new App();
  let calls = 0;
  app.use(cache(options));
  app.get('/', (c) => c.text(`answer ${++calls}`, 200, headers));
  app.post('/', (c) => c.text(`posted ${++calls}`, 200, headers));
  const get = async (init?: RequestInit) => {
    const res = await app.request('/', init);
    const text = await res.text();
    await settle();
    return { res, text };
  };
  return { app, get, calls: () => calls };
}

describe('cache', () => {
  it('answers a repeat GET from the cache while fresh, with Age, and without its own bookkeeping headers', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    const { get, calls } = makeApp({ 'cache-control': 'public, max-age=60' });
    expect((await get()).text).toBe('answer 1');
    vi.advanceTimersByTime(5000);
    const hit = await get();
    expect(hit.text).toBe('answer 1');
    expect(hit.res.headers.get('age')).toBe('5');
    expect([...hit.res.headers.keys()].filter((k) => k.startsWith('x-rove'))).toEqual([]);
    expect(calls()).toBe(1);
    vi.advanceTimersByTime(60_000);
    expect((await get()).text).toBe('answer 2');
  });

  it('s-maxage wins over max-age for this shared cache', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    const { get } = makeApp({ 'cache-control': 'max-age=600, s-maxage=2' });
    await get();
    vi.advanceTimersByTime(3000);
    expect((await get()).text).toBe('answer 2');
  });

  it('does not store private, no-store, no-cache, Set-Cookie, or responses without a lifetime', async () => {
    const cases: Record<string, string>[] = [
      { 'cache-control': 'private, max-age=60' },
      { 'cache-control': 'no-store' },
      { 'cache-control': 'no-cache, max-age=60' },
      { 'cache-control': 'max-age=60', 'set-cookie': 'a=1' },
      {},
      { 'cache-control': 'max-age=60', vary: '*' },
    ];
    for (const headers of cases) {
      stored.clear();
      const { get } = makeApp(headers);
      await get();
      expect((await get()).text, JSON.stringify(headers)).toBe('answer 2');
    }
  });

  it('stores a response without a lifetime for the maxAge option', async () => {
    const { get } = makeApp({}, { maxAge: 30 });
    await get();
    expect((await get()).text).toBe('answer 1');
  });

  it('honours Vary: another value of a varied header is a miss', async () => {
    const { get, calls } = makeApp({ 'cache-control': 'max-age=60', vary: 'Accept-Language' });
    expect((await get({ headers: { 'accept-language': 'en' } })).text).toBe('answer 1');
    expect((await get({ headers: { 'accept-language': 'en' } })).text).toBe('answer 1');
    expect((await get({ headers: { 'accept-language': 'fr' } })).text).toBe('answer 2');
    expect(calls()).toBe(2);
  });

  it('keeps Authorization requests out unless the response is public or has s-maxage', async () => {
    const auth = { headers: { authorization: 'Bearer x' } };
    const privateByDefault = makeApp({ 'cache-control': 'max-age=60' });
    await privateByDefault.get(auth);
    expect((await privateByDefault.get(auth)).text).toBe('answer 2');
    stored.clear();
    const shared = makeApp({ 'cache-control': 'public, max-age=60' });
    await shared.get(auth);
    expect((await shared.get(auth)).text).toBe('answer 1');
  });

  it('passes other methods, request no-cache and large bodies; without a Cache API it keeps copies in memory', async () => {
    const { app, get } = makeApp({ 'cache-control': 'max-age=60' }, { maxSize: 5 });
    await (await app.request('/', { method: 'POST' })).text();
    await get();
    expect(stored.size).toBe(0); // 'answer 1' is over 5 bytes
    vi.unstubAllGlobals();
    const none = makeApp({ 'cache-control': 'max-age=60' });
    await none.get();
    expect((await none.get()).text).toBe('answer 1');
  });

  it('a request with Cache-Control: no-cache skips the stored copy and refreshes it', async () => {
    const { get } = makeApp({ 'cache-control': 'max-age=60' });
    await get();
    expect((await get({ headers: { 'cache-control': 'no-cache' } })).text).toBe('answer 2');
    expect((await get()).text).toBe('answer 2');
  });

  it('forgets a URL when an unsafe method on it succeeds (RFC 9111 §4.4), and keeps it when it fails', async () => {
    const app = new App();
    let version = 1;
    app.use(cache());
    app.get('/thing', (c) => c.json({ version }, 200, { 'cache-control': 'public, max-age=60' }));
    const write = (c: Context) => {
      if (c.req.query('fail') !== undefined) return c.json({ error: true }, 409);
      version++;
      return c.json({ version });
    };
    app.put('/thing', write).post('/thing', write).patch('/thing', write).delete('/thing', write);
    const read = async () => {
      const body = await (await app.request('/thing')).json();
      await settle();
      return body;
    };
    expect(await read()).toEqual({ version: 1 });
    expect(await read()).toEqual({ version: 1 }); // from the cache
    for (const method of ['PUT', 'POST', 'PATCH', 'DELETE']) {
      const before = version;
      expect((await app.request('/thing', { method })).status).toBe(200);
      expect(await read()).toEqual({ version: before + 1 });
      expect(await read()).toEqual({ version: before + 1 });
    }
    expect((await app.request('/thing?fail', { method: 'PUT' })).status).toBe(409);
    expect(await read()).toEqual({ version });
  });

  it('a write between a read and the store of its copy wins: the older copy is never stored after it', async () => {
    vi.unstubAllGlobals();
    const inner = memoryCache();
    let gate: (() => void) | undefined;
    // A store whose writes wait until the test lets them through: the read's copy is still on its way.
    const slow = {
      match: (key: Request) => inner.match(key),
      put: async (key: Request, res: Response) => {
        await new Promise<void>((resolve) => {
          gate = resolve;
        });
        await inner.put(key, res);
      },
      delete: (key: Request) => inner.delete(key),
    };
    const app = new App();
    let version = 1;
    app.use(cache({ store: slow }));
    app.get('/thing', (c) => c.json({ version }, 200, { 'cache-control': 'max-age=60' }));
    app.put('/thing', (c) => c.json({ version: ++version }));
    expect(await (await app.request('/thing')).json()).toEqual({ version: 1 }); // its copy waits at the gate
    await new Promise((r) => setTimeout(r, 10));
    const put = app.request('/thing', { method: 'PUT' }); // waits for the store under way, then deletes
    await new Promise((r) => setTimeout(r, 10));
    gate?.();
    expect((await put).status).toBe(200);
    await new Promise((r) => setTimeout(r, 10)); // a stale store, had it gone ahead, would have landed
    expect(await (await app.request('/thing')).json()).toEqual({ version: 2 });
  });

  it('WriteOrder: a read begun before a write stores nothing after it; one begun after it does', () => {
    const order = new WriteOrder(2);
    const before = order.mark();
    order.changed('http://h/a');
    expect(order.mayStore('http://h/a', before)).toBe(false);
    expect(order.mayStore('http://h/b', before)).toBe(true);
    expect(order.mayStore('http://h/a', order.mark())).toBe(true);
    // Past what it remembers, it refuses the reads older than what it forgot.
    const old = order.mark();
    order.changed('http://h/b');
    order.changed('http://h/c');
    order.changed('http://h/d');
    expect(order.mayStore('http://h/z', old)).toBe(false);
    expect(order.mayStore('http://h/z', order.mark())).toBe(true);
  });

  it("also forgets the write's Location and Content-Location on the same host, never another host's", async () => {
    const app = new App();
    let n = 0;
    app.use(cache());
    app.get('/items/:id', (c) => c.text(`item ${c.req.param('id')} #${++n}`, 200, { 'cache-control': 'max-age=60' }));
    app.post('/items', (c) => c.body(null, 201, { location: '/items/1', 'content-location': 'http://evil.example/items/2' }));
    const read = async (id: string) => {
      const text = await (await app.request(`/items/${id}`)).text();
      await settle();
      return text;
    };
    const one = await read('1');
    const two = await read('2');
    expect((await app.request('/items', { method: 'POST' })).status).toBe(201);
    expect(await read('1')).not.toBe(one);
    expect(await read('2')).toBe(two);
  });

  it('takes its store from a function of the context', async () => {
    vi.unstubAllGlobals();
    const stores = { a: memoryCache(), b: memoryCache() };
    const app = new App();
    let n = 0;
    app.use(cache({ store: (c) => stores[c.req.header('x-tenant') === 'b' ? 'b' : 'a'] }));
    app.get('/', (c) => c.text(`answer ${++n}`, 200, { 'cache-control': 'max-age=60' }));
    const get = async (tenant: string) => {
      const text = await (await app.request('/', { headers: { 'x-tenant': tenant } })).text();
      await settle();
      return text;
    };
    expect(await get('a')).toBe('answer 1');
    expect(await get('b')).toBe('answer 2');
    expect(await get('a')).toBe('answer 1');
    expect(await get('b')).toBe('answer 2');
  });
});

describe('memoryCache', () => {
  const key = (n: number) => new Request(`http://h/${n}`);
  it('keeps at most maxEntries copies, the least recently used going first', async () => {
    const store = memoryCache({ maxEntries: 2 });
    await store.put(key(1), new Response('one'));
    await store.put(key(2), new Response('two'));
    expect(await (await store.match(key(1)))?.text()).toBe('one'); // 1 is now the most recent
    await store.put(key(3), new Response('three'));
    expect(await store.match(key(2))).toBeUndefined();
    expect(await (await store.match(key(1)))?.text()).toBe('one');
    expect(await (await store.match(key(3)))?.text()).toBe('three');
  });

  it('keeps at most maxBytes of bodies, and never a body larger than that', async () => {
    const store = memoryCache({ maxBytes: 10 });
    await store.put(key(1), new Response('12345'));
    await store.put(key(2), new Response('67890'));
    await store.put(key(3), new Response('abc'));
    expect(await store.match(key(1))).toBeUndefined();
    expect(await (await store.match(key(2)))?.text()).toBe('67890');
    await store.put(key(4), new Response('x'.repeat(11)));
    expect(await store.match(key(4))).toBeUndefined();
    expect(await store.delete(key(2))).toBe(true);
    expect(await store.match(key(2))).toBeUndefined();
  });

  it('gives back the status, headers and bytes it was given', async () => {
    const store = memoryCache();
    await store.put(key(1), new Response(new Uint8Array([0, 255, 7]), { status: 200, headers: { 'x-a': '1', 'content-type': 'application/octet-stream' } }));
    const hit = (await store.match(key(1)))!;
    expect(hit.headers.get('x-a')).toBe('1');
    expect([...new Uint8Array(await hit.arrayBuffer())]).toEqual([0, 255, 7]);
  });
});
