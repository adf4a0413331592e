// cache() on a stand-in Cache API (a Map by URL, as the Cache API keys by URL); the real ones
// run in test/rate-limit/http.test.ts (Deno, deno serve) and test/workerd/rate-limit.test.ts.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { App } from '../../src/index.ts';
import { cache } from '../../src/middleware/cache/index.ts';

let stored: Map<string, Response>;
beforeEach(() => {
  stored = new Map();
  const store = {
    match: async (request: Request) => stored.get(request.url)?.clone(),
    put: async (request: Request, response: Response) => {
      stored.set(request.url, response);
    },
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

  it('passes other methods, request no-cache, large bodies, and runtimes without a Cache API', async () => {
    const { app, get } = makeApp({ 'cache-control': 'max-age=60' }, { maxSize: 5 });
    await (await app.request('/', { method: 'POST' })).text();
    await get();
    expect(stored.size).toBe(0); // 'answer 1' is over 5 bytes
    vi.unstubAllGlobals();
    const none = makeApp({ 'cache-control': 'max-age=60' });
    await none.get();
    expect((await none.get()).text).toBe('answer 2');
  });

  it('a request with Cache-Control: no-cache skips the stored copy and refreshes it', async () => {
    const { get } = makeApp({ 'cache-control': 'max-age=60' });
    await get();
    expect((await get({ headers: { 'cache-control': 'no-cache' } })).text).toBe('answer 2');
    expect((await get()).text).toBe('answer 2');
  });
});
