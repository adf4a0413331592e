import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { App } from '../../../src/index.ts';
import { cookieStore, getSession, kvStore, memoryStore, type SessionOptions, session } from '../../../src/middleware/session/index.ts';

const KEY = 'test-session-secret-0123456789abcdef';
const OLD_KEY = 'old-session-secret-0123456789abcdef';

/** A small app: /get reads, /set?k=&v= writes, /login regenerates, /logout destroys, /none ignores the session. */
function makeApp(options: Partial<SessionOptions> = {}) {
  const app = new App();
  app.use(session({ keys: [KEY], ...options }));
  app.get('/none', (c) => c.text('no session'));
  app.get('/get', async (c) => c.json((await getSession(c).all()) ?? null));
  app.get('/key', async (c) => c.json({ value: (await getSession(c).get(c.req.query('k') ?? '')) ?? null }));
  app.get('/set', async (c) => {
    await getSession(c).set(c.req.query('k') ?? 'k', c.req.query('v') ?? 'v');
    return c.text('ok');
  });
  app.get('/big', async (c) => {
    await getSession(c).set('big', 'x'.repeat(Number(c.req.query('n'))));
    return c.text('ok');
  });
  app.post('/login', async (c) => {
    await getSession(c).regenerate();
    await getSession(c).set('user', 'ada');
    return c.redirect('/', 303);
  });
  app.post('/logout', async (c) => {
    await getSession(c).destroy();
    return c.redirect('/', 303);
  });
  return app;
}

function cookieOf(res: Response, name = 'rove.sid'): string | undefined {
  const line = res.headers.getSetCookie().find((h) => h.startsWith(`${name}=`));
  return line?.slice(name.length + 1).split(';')[0];
}

async function call(app: App, path: string, cookie?: string, init: RequestInit = {}, base = 'http://localhost') {
  const headers = new Headers(init.headers);
  if (cookie !== undefined) headers.set('cookie', `rove.sid=${cookie}`);
  return app.fetch(new Request(base + path, { ...init, headers }));
}

describe('session > cookie store', () => {
  it('round-trips values through the sealed cookie', async () => {
    const app = makeApp();
    const set = await call(app, '/set?k=name&v=ada');
    const cookie = cookieOf(set)!;
    expect(cookie).toMatch(/^[A-Za-z0-9_-]+$/);
    expect(cookie).not.toContain('ada');
    expect(await (await call(app, '/get', cookie)).json()).toEqual({ name: 'ada' });
  });

  it('sets HttpOnly, SameSite=Lax, Path=/ and Max-Age; Secure only on https', async () => {
    const app = makeApp();
    const plain = (await call(app, '/set')).headers.get('set-cookie')!;
    expect(plain).toMatch(/; Path=\/; HttpOnly; SameSite=Lax/);
    expect(plain).toContain('Max-Age=86400');
    expect(plain).not.toContain('Secure');
    const tls = (await call(app, '/set', undefined, {}, 'https://localhost')).headers.get('set-cookie')!;
    expect(tls).toContain('; Secure');
  });

  it('a __Host- or __Secure- name is always Secure, even over http; secure: false for it throws', async () => {
    for (const name of ['__Host-sid', '__Secure-sid']) {
      const app = makeApp({ name });
      const res = await call(app, '/set');
      expect(res.status).toBe(200);
      expect(res.headers.get('set-cookie')).toMatch(new RegExp(`^${name}=[^;]+;.*; Secure`));
      expect(() => session({ keys: [KEY], name, cookie: { secure: false } })).toThrow(/must be Secure/);
    }
    expect(() => session({ keys: [KEY], name: '__Host-sid', cookie: { path: '/app' } })).toThrow(/Path=\//);
  });

  it('sends no cookie when the session is not touched, or only read', async () => {
    const app = makeApp();
    expect((await call(app, '/none')).headers.get('set-cookie')).toBeNull();
    expect((await call(app, '/get')).headers.get('set-cookie')).toBeNull();
    const cookie = cookieOf(await call(app, '/set'))!;
    expect((await call(app, '/get', cookie)).headers.get('set-cookie')).toBeNull();
  });

  it('treats a tampered, truncated or foreign cookie as no session', async () => {
    const app = makeApp();
    const cookie = cookieOf(await call(app, '/set?k=user&v=ada'))!;
    const flipped = cookie.slice(0, 20) + (cookie[20] === 'A' ? 'B' : 'A') + cookie.slice(21);
    for (const bad of [flipped, cookie.slice(0, -1), cookie.slice(0, 30), `${cookie}x`, 'garbage', '']) {
      const res = await call(app, '/get', bad);
      expect(res.status).toBe(200);
      expect(await res.json()).toEqual({});
    }
    const foreign = makeApp({ keys: [OLD_KEY] });
    expect(await (await call(foreign, '/get', cookie)).json()).toEqual({});
  });

  it('reads cookies sealed with an older key and rewrites them with the current one', async () => {
    const before = makeApp({ keys: [OLD_KEY] });
    const old = cookieOf(await call(before, '/set?k=user&v=ada'))!;
    const rotated = makeApp({ keys: [KEY, OLD_KEY] });
    expect(await (await call(rotated, '/get', old)).json()).toEqual({ user: 'ada' });
    const rewritten = cookieOf(await call(rotated, '/set?k=n&v=1', old))!;
    const currentOnly = makeApp({ keys: [KEY] });
    expect(await (await call(currentOnly, '/get', rewritten)).json()).toEqual({ user: 'ada', n: '1' });
    expect(await (await call(currentOnly, '/get', old)).json()).toEqual({});
  });

  it('keeps __proto__, constructor and toString as plain keys', async () => {
    const app = makeApp();
    let cookie: string | undefined;
    for (const k of ['__proto__', 'constructor', 'toString', 'hasOwnProperty']) cookie = cookieOf(await call(app, `/set?k=${k}&v=${k}-value`, cookie))!;
    const all = await (await call(app, '/get', cookie)).json();
    expect(all).toEqual(
      JSON.parse('{"__proto__":"__proto__-value","constructor":"constructor-value","toString":"toString-value","hasOwnProperty":"hasOwnProperty-value"}'),
    );
    expect(await (await call(app, '/key?k=__proto__', cookie)).json()).toEqual({ value: '__proto__-value' });
    expect(await (await call(makeApp(), '/key?k=constructor')).json()).toEqual({ value: null });
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  it('answers a clear 500 when the session outgrows the cookie, and sends no truncated cookie', async () => {
    const app = new App({ dev: true });
    app.use(session({ keys: [KEY] }));
    app.get('/big', async (c) => {
      await getSession(c).set('big', 'x'.repeat(Number(c.req.query('n'))));
      return c.text('ok');
    });
    expect((await app.fetch(new Request('http://localhost/big?n=2000'))).status).toBe(200);
    for (const n of [3100, 5000, 100_000]) {
      const res = await app.fetch(new Request(`http://localhost/big?n=${n}`));
      expect(res.status).toBe(500);
      expect(res.headers.get('set-cookie')).toBeNull();
      expect(JSON.stringify(await res.json())).toMatch(/cookie limit.*server-side store/);
    }
  });

  it('says which values a session cannot hold', async () => {
    const app = new App({ dev: true });
    app.use(session({ keys: [KEY] }));
    app.get('/', async (c) => {
      await getSession(c).set('n', 10n);
      return c.text('ok');
    });
    const res = await app.fetch(new Request('http://localhost/'));
    expect(res.status).toBe(500);
    expect(JSON.stringify(await res.json())).toContain('Session values must be JSON');
  });

  it('ignores a huge cookie without decrypting it', async () => {
    const app = makeApp();
    const res = await call(app, '/get', 'A'.repeat(60_000));
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({});
  });

  it('expires a session maxAge seconds after it was saved', async () => {
    const app = makeApp({ maxAge: 1 });
    const cookie = cookieOf(await call(app, '/set?k=a&v=1'))!;
    expect(await (await call(app, '/get', cookie)).json()).toEqual({ a: '1' });
    await new Promise((r) => setTimeout(r, 1100));
    expect(await (await call(app, '/get', cookie)).json()).toEqual({});
  });

  it('regenerate() gives a different cookie with the same data; destroy() deletes the cookie', async () => {
    const app = makeApp();
    const before = cookieOf(await call(app, '/set?k=cart&v=3'))!;
    const login = await call(app, '/login', before, { method: 'POST' });
    const after = cookieOf(login)!;
    expect(after).not.toBe(before);
    expect(await (await call(app, '/get', after)).json()).toEqual({ cart: '3', user: 'ada' });
    const logout = await call(app, '/logout', after, { method: 'POST' });
    expect(logout.headers.get('set-cookie')).toMatch(/^rove\.sid=; Max-Age=0; Expires=Thu, 01 Jan 1970/);
  });

  it('emits session:created (new, regenerated) and session:destroyed, without ids or data', async () => {
    const app = makeApp();
    const events: unknown[] = [];
    app.on('session:created', (e) => void events.push([e.kind, e.metadata]));
    app.on('session:destroyed', (e) => void events.push([e.kind, e.metadata]));
    const first = cookieOf(await call(app, '/set'))!;
    await call(app, '/set?k=b', first);
    const login = cookieOf(await call(app, '/login', first, { method: 'POST' }))!;
    await call(app, '/logout', login, { method: 'POST' });
    expect(events).toEqual([
      ['session:created', { store: 'cookie', reason: 'new', path: '/set' }],
      ['session:created', { store: 'cookie', reason: 'regenerated', path: '/login' }],
      ['session:destroyed', { store: 'cookie', path: '/logout' }],
    ]);
  });

  it('refuses bad options when registered', () => {
    expect(() => session({ keys: ['short'] })).toThrow(/32 bytes/);
    expect(() => session({ keys: [KEY], name: 'bad name' })).toThrow(/cookie name/);
    expect(() => session({ keys: [KEY], cookie: { path: '/;x' } })).toThrow(/Cookie path/);
    expect(() => session({ keys: [KEY], maxAge: 0 })).toThrow(/maxAge/);
    expect(() => session({ keys: [KEY], cookie: { sameSite: 'None', secure: false } })).toThrow(/Secure/);
    expect(() => session({ keys: [KEY], store: {} as never })).toThrow(/store/);
  });

  it('getSession(c) without the middleware says how to add it', async () => {
    const app = new App({ dev: true });
    app.get('/', async (c) => c.json(await getSession(c).get('x')));
    const res = await app.fetch(new Request('http://localhost/'));
    expect(res.status).toBe(500);
    expect(JSON.stringify(await res.json())).toContain('app.use(session(');
  });

  it('round-trips any JSON values (property)', async () => {
    const app = new App();
    app.use(session({ keys: [KEY] }));
    app.post('/put', async (c) => {
      const body = (await c.req.json()) as Record<string, unknown>;
      for (const [k, v] of Object.entries(body)) await getSession(c).set(k, v);
      return c.text('ok');
    });
    app.get('/all', async (c) => c.json(await getSession(c).all()));
    await fc.assert(
      fc.asyncProperty(fc.dictionary(fc.string({ maxLength: 10 }), fc.jsonValue({ maxDepth: 2 }), { maxKeys: 5 }), async (values) => {
        const clean = JSON.parse(JSON.stringify(values));
        const put = await app.fetch(new Request('http://localhost/put', { method: 'POST', body: JSON.stringify(clean) }));
        if (put.status === 500) return; // over the cookie limit: a clear error, tested above
        const cookie = cookieOf(put);
        if (Object.keys(clean).length === 0) {
          expect(cookie).toBeUndefined();
          return;
        }
        expect(await (await call(app, '/all', cookie)).json()).toEqual(clean);
      }),
      { numRuns: 40 },
    );
  });
});

describe('session > server stores', () => {
  it('memoryStore keeps the data on the server; the cookie holds a sealed id', async () => {
    const app = makeApp({ store: memoryStore() });
    const cookie = cookieOf(await call(app, '/set?k=user&v=ada'))!;
    expect(cookie.length).toBeLessThan(100);
    expect(await (await call(app, '/get', cookie)).json()).toEqual({ user: 'ada' });
  });

  it('destroy() makes the old cookie worthless; regenerate() retires the old id', async () => {
    const app = makeApp({ store: memoryStore() });
    const first = cookieOf(await call(app, '/set?k=cart&v=1'))!;
    const after = cookieOf(await call(app, '/login', first, { method: 'POST' }))!;
    expect(await (await call(app, '/get', first)).json()).toEqual({});
    expect(await (await call(app, '/get', after)).json()).toEqual({ cart: '1', user: 'ada' });
    await call(app, '/logout', after, { method: 'POST' });
    expect(await (await call(app, '/get', after)).json()).toEqual({});
  });

  it('memoryStore is bounded: the least recently used session goes first', async () => {
    const store = memoryStore({ maxEntries: 2 });
    const app = makeApp({ store });
    const a = cookieOf(await call(app, '/set?k=n&v=a'))!;
    const b = cookieOf(await call(app, '/set?k=n&v=b'))!;
    await call(app, '/get', a); // a is now the most recently used
    const c = cookieOf(await call(app, '/set?k=n&v=c'))!;
    expect(await (await call(app, '/get', b)).json()).toEqual({});
    expect(await (await call(app, '/get', a)).json()).toEqual({ n: 'a' });
    expect(await (await call(app, '/get', c)).json()).toEqual({ n: 'c' });
    expect(() => memoryStore({ maxEntries: 0 })).toThrow(RangeError);
  });

  it('memoryStore refuses a session over maxValueSize', async () => {
    const app = new App();
    app.use(session({ keys: [KEY], store: memoryStore({ maxValueSize: 100 }) }));
    app.get('/big', async (c) => {
      await getSession(c).set('x', 'y'.repeat(200));
      return c.text('ok');
    });
    expect((await app.fetch(new Request('http://localhost/big'))).status).toBe(500);
  });

  it('kvStore writes through the namespace with a TTL of at least 60 s, under a prefix', async () => {
    const kv = fakeKv();
    const app = makeApp({ store: kvStore((c) => (c.env as { KV: typeof kv }).KV), maxAge: 30 });
    const env = { KV: kv };
    const set = await app.fetch(new Request('http://localhost/set?k=user&v=ada'), env);
    const cookie = cookieOf(set)!;
    expect([...kv.data.keys()]).toEqual([expect.stringMatching(/^session:[A-Za-z0-9_-]{43}$/)]);
    expect(kv.ttls).toEqual([60]);
    const get = await app.fetch(new Request('http://localhost/get', { headers: { cookie: `rove.sid=${cookie}` } }), env);
    expect(await get.json()).toEqual({ user: 'ada' });
    await app.fetch(new Request('http://localhost/logout', { method: 'POST', headers: { cookie: `rove.sid=${cookie}` } }), env);
    expect(kv.data.size).toBe(0);
  });

  it('kvStore without a namespace says how to bind one', async () => {
    const app = new App({ dev: true });
    app.use(session({ keys: [KEY], store: kvStore(() => undefined as never) }));
    app.get('/', async (c) => c.json(await getSession(c).get('x')));
    const res = await app.fetch(new Request('http://localhost/', { headers: { cookie: 'rove.sid=abc' } }));
    expect(res.status).toBe(200); // the cookie does not open: the store is never asked
    const app2 = new App({ dev: true });
    app2.use(session({ keys: [KEY], store: kvStore(() => undefined as never) }));
    app2.get('/', async (c) => {
      await getSession(c).set('x', 1);
      return c.text('ok');
    });
    const res2 = await app2.fetch(new Request('http://localhost/'));
    expect(res2.status).toBe(500);
    expect(JSON.stringify(await res2.json())).toContain('kv_namespaces');
  });

  it('cookieStore() is the default', () => {
    expect(cookieStore().kind).toBe('cookie');
  });
});

function fakeKv() {
  const data = new Map<string, string>();
  const ttls: number[] = [];
  return {
    data,
    ttls,
    async get(key: string) {
      return data.get(key) ?? null;
    },
    async put(key: string, value: string, options?: { expirationTtl?: number }) {
      data.set(key, value);
      ttls.push(options?.expirationTtl ?? -1);
    },
    async delete(key: string) {
      data.delete(key);
    },
  };
}
