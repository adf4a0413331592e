// session({ keys: (c) => … }): secrets resolved from c.env on each request (Workers), derived once per key list.
import { afterEach, describe, expect, it, vi } from 'vitest';
import { App } from '../../../src/index.ts';
import { ConfigError, getSession, memoryStore, type SessionOptions, session } from '../../../src/middleware/session/index.ts';
import '../../../src/testing/index.ts';

const KEY = 'test-session-secret-0123456789abcdef';
const NEXT_KEY = 'next-session-secret-0123456789abcdef';

type Bindings = { SESSION_SECRET?: string; OLD_SESSION_SECRET?: string };

function makeApp(keys: SessionOptions<{ Bindings: Bindings }>['keys'], options: Partial<SessionOptions> = {}) {
  const app = new App<{ Bindings: Bindings }>();
  const errors: unknown[] = [];
  app.onError((error, c) => {
    errors.push(error);
    return c.text('failed', 500);
  });
  app.use(session({ keys, ...options }));
  app.get('/none', (c) => c.text('no session'));
  app.get('/get', async (c) => c.json({ v: (await getSession(c).get('v')) ?? null }));
  app.get('/set', async (c) => {
    await getSession(c).set('v', c.req.query('v') ?? 'x');
    return c.text('ok');
  });
  return { app, errors };
}

const cookieOf = (res: Response) => res.headers.get('set-cookie')?.split(';')[0];

describe('session > keys from the context', () => {
  afterEach(() => vi.restoreAllMocks());

  it('seals and opens with the secret in c.env', async () => {
    const { app } = makeApp((c) => [c.env.SESSION_SECRET as string]);
    const env = { SESSION_SECRET: KEY };
    const set = await app.request('/set?v=hello', undefined, env);
    expect(set.status).toBe(200);
    const cookie = cookieOf(set)!;
    const got = await app.request('/get', { headers: { cookie } }, env);
    expect(await got.json()).toEqual({ v: 'hello' });
  });

  it('opens a cookie sealed by the same secret given as a fixed key', async () => {
    const fixed = makeApp([KEY]).app;
    const cookie = cookieOf(await fixed.request('/set?v=same'))!;
    const { app } = makeApp((c) => c.env.SESSION_SECRET as string);
    expect(await (await app.request('/get', { headers: { cookie } }, { SESSION_SECRET: KEY })).json()).toEqual({ v: 'same' });
  });

  it('accepts a promise of the keys', async () => {
    const { app } = makeApp(async (c) => [c.env.SESSION_SECRET as string]);
    const cookie = cookieOf(await app.request('/set?v=later', undefined, { SESSION_SECRET: KEY }))!;
    expect(await (await app.request('/get', { headers: { cookie } }, { SESSION_SECRET: KEY })).json()).toEqual({ v: 'later' });
  });

  it('honours a rotation: the new secret seals, the old one still opens, a dropped one no longer does', async () => {
    const { app } = makeApp((c) => [c.env.SESSION_SECRET, c.env.OLD_SESSION_SECRET].filter((k) => k !== undefined));
    const before = { SESSION_SECRET: KEY };
    const during = { SESSION_SECRET: NEXT_KEY, OLD_SESSION_SECRET: KEY };
    const after = { SESSION_SECRET: NEXT_KEY };
    const old = cookieOf(await app.request('/set?v=old', undefined, before))!;
    expect(await (await app.request('/get', { headers: { cookie: old } }, during)).json()).toEqual({ v: 'old' });
    const resealed = cookieOf(await app.request('/set?v=new', { headers: { cookie: old } }, during))!;
    expect(await (await app.request('/get', { headers: { cookie: resealed } }, after)).json()).toEqual({ v: 'new' });
    // Sealed under KEY alone: once KEY is gone from the list it reads as no session.
    expect(await (await app.request('/get', { headers: { cookie: old } }, after)).json()).toEqual({ v: null });
    // And a different env in the same process (another test, another tenant) is its own.
    expect(await (await app.request('/get', { headers: { cookie: resealed } }, before)).json()).toEqual({ v: null });
  });

  it('derives the keys once per key list, not on every request', async () => {
    const derive = vi.spyOn(crypto.subtle, 'deriveKey');
    const { app } = makeApp((c) => [c.env.SESSION_SECRET as string], { remember: 0 });
    const env = { SESSION_SECRET: KEY };
    const cookie = cookieOf(await app.request('/set?v=1', undefined, env))!;
    for (let i = 0; i < 5; i++) expect(await (await app.request('/get', { headers: { cookie } }, { ...env })).json()).toEqual({ v: '1' });
    expect(derive).toHaveBeenCalledTimes(1);
    await app.request('/set?v=2', undefined, { SESSION_SECRET: NEXT_KEY });
    expect(derive).toHaveBeenCalledTimes(2);
    await app.request('/get', { headers: { cookie } }, env); // back to the first list: still known
    expect(derive).toHaveBeenCalledTimes(2);
  });

  it('calls the function only on requests that use the session', async () => {
    const keys = vi.fn(() => [KEY]);
    const { app } = makeApp(keys);
    expect((await app.request('/none')).status).toBe(200);
    expect(keys).not.toHaveBeenCalled();
  });

  it.each([
    ['nothing', () => undefined],
    ['an empty list', () => []],
    ['an unset variable', (c: { env: Bindings }) => [c.env.SESSION_SECRET]],
    ['an empty string', () => ''],
    ['a short secret', () => ['short']],
    ['nine keys', () => Array.from({ length: 9 }, (_, i) => `${KEY}${i}`)],
  ])('fails with a 500 and a logged ConfigError when it gives %s', async (_, keys) => {
    const log = vi.spyOn(console, 'error').mockImplementation(() => {});
    const { app, errors } = makeApp(keys as never);
    for (const path of ['/get', '/set']) {
      const res = await app.request(path, undefined, {});
      expect(res.status).toBe(500);
      expect(res.headers.get('set-cookie')).toBeNull();
    }
    expect(errors[0]).toBeInstanceOf(ConfigError);
    expect((errors[0] as Error).message).toMatch(/^session\(\)/);
    expect(log.mock.calls.flat().join(' ')).toContain('configuration error');
    // The log names the option, never a secret.
    expect(log.mock.calls.flat().join(' ')).not.toContain(KEY);
  });

  it('fails closed when the function throws, without the thrown message (it may quote a secret)', async () => {
    const log = vi.spyOn(console, 'error').mockImplementation(() => {});
    const { app, errors } = makeApp(() => JSON.parse(`{${KEY}`));
    const res = await app.request('/get', undefined, {});
    expect(res.status).toBe(500);
    expect(errors[0]).toBeInstanceOf(ConfigError);
    expect((errors[0] as Error).message).toContain('SyntaxError');
    expect((errors[0] as Error).cause).toBeInstanceOf(SyntaxError);
    expect(log.mock.calls.flat().join(' ')).not.toContain(KEY);
  });

  it('works with a server store, and a store session from one secret is not read under another', async () => {
    const { app } = makeApp((c) => [c.env.SESSION_SECRET as string], { store: memoryStore() });
    const cookie = cookieOf(await app.request('/set?v=kept', undefined, { SESSION_SECRET: KEY }))!;
    expect(await (await app.request('/get', { headers: { cookie } }, { SESSION_SECRET: KEY })).json()).toEqual({ v: 'kept' });
    expect(await (await app.request('/get', { headers: { cookie } }, { SESSION_SECRET: NEXT_KEY })).json()).toEqual({ v: null });
  });

  it('still checks fixed keys at registration', () => {
    expect(() => session({ keys: ['short'] })).toThrow(RangeError);
    expect(() => session({ keys: [] })).toThrow(TypeError);
  });
});

describe('session > a store from the context', () => {
  it('takes the store a function gives for each request, and checks it the first time', async () => {
    const stores = { a: memoryStore(), b: memoryStore() };
    const app = new App<{ Bindings: { STORE: 'a' | 'b' | 'bad' } }>();
    const errors: unknown[] = [];
    app.onError((error, c) => {
      errors.push(error);
      return c.text('failed', 500);
    });
    app.use(session({ keys: [KEY], store: (c) => (c.env.STORE === 'bad' ? ({} as never) : stores[c.env.STORE]) }));
    app.get('/set', async (c) => {
      await getSession(c).set('v', 'kept');
      return c.text('ok');
    });
    app.get('/get', async (c) => c.json({ v: (await getSession(c).get('v')) ?? null }));
    const set = await app.request('/set', undefined, { STORE: 'a' });
    const cookie = cookieOf(set)!;
    expect(await (await app.request('/get', { headers: { cookie } }, { STORE: 'a' })).json()).toEqual({ v: 'kept' });
    // The other store has no such session: the cookie's id means nothing there.
    expect(await (await app.request('/get', { headers: { cookie } }, { STORE: 'b' })).json()).toEqual({ v: null });
    expect((await app.request('/get', { headers: { cookie } }, { STORE: 'bad' })).status).toBe(500);
    expect(String(errors[0])).toMatch(/store must be cookieStore\(\), memoryStore\(\), kvStore/);
  });
});
