import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { App, validate } from '../src/index.ts';

function usersApp() {
  const app = new App<{ Bindings: { GREETING?: string } }>();
  app.get('/users/:id', (c) => c.json({ id: c.req.param('id'), q: c.req.query('x') ?? null, host: c.req.header('host') ?? null }));
  app.post('/users', validate('json', z.object({ name: z.string() })), (c) => c.json(c.valid('json'), 201));
  app.get('/env', (c) => c.json({ greeting: c.env.GREETING ?? null, keys: Object.keys(c.env) }));
  return app;
}

describe('app.request', () => {
  it('takes a path with a query and answers a real Response', async () => {
    const res = await usersApp().request('/users/1?x=2');
    expect(res).toBeInstanceOf(Response);
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ id: '1', q: '2', host: 'localhost' });
  });

  it('takes a full URL, as a string or a URL', async () => {
    const app = usersApp();
    expect(await (await app.request('https://example.com/users/7')).json()).toEqual({ id: '7', q: null, host: 'example.com' });
    expect(await (await app.request(new URL('http://a.test/users/8?x=y'))).json()).toEqual({ id: '8', q: 'y', host: 'a.test' });
  });

  it('takes a Request, and init overrides it', async () => {
    const app = usersApp();
    const made = new Request('http://localhost/users', { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"name":"Ada"}' });
    const res = await app.request(made);
    expect(res.status).toBe(201);
    expect(await res.json()).toEqual({ name: 'Ada' });
    const again = await app.request(new Request('http://localhost/users/1'), { method: 'DELETE' });
    expect(again.status).toBe(405);
  });

  it('passes init through: method, headers and a body', async () => {
    const res = await usersApp().request('/users', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ name: 'Lin' }) });
    expect(res.status).toBe(201);
    expect(await res.json()).toEqual({ name: 'Lin' });
    const bad = await usersApp().request('/users', { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{' });
    expect(bad.status).toBe(400);
  });

  it('gives handlers an empty env without one, and the given env otherwise', async () => {
    const app = usersApp();
    expect(await (await app.request('/env')).json()).toEqual({ greeting: null, keys: [] });
    expect(await (await app.request('/env', undefined, { GREETING: 'hi' })).json()).toEqual({ greeting: 'hi', keys: ['GREETING'] });
  });

  it('runs waitUntil work without an execution context', async () => {
    const app = new App();
    let done: (value: string) => void = () => {};
    const finished = new Promise<string>((resolve) => {
      done = resolve;
    });
    app.get('/', (c) => {
      c.executionCtx.waitUntil(Promise.resolve().then(() => done('background work ran')));
      return c.text('ok');
    });
    const res = await app.request('/');
    expect(await res.text()).toBe('ok');
    expect(await finished).toBe('background work ran');
  });

  it('hands the given execution context to handlers', async () => {
    const app = new App();
    const seen: Promise<unknown>[] = [];
    app.get('/', (c) => {
      c.executionCtx.waitUntil(Promise.resolve(1));
      return c.text('ok');
    });
    await app.request('/', undefined, undefined, { waitUntil: (p) => seen.push(p) });
    expect(seen).toHaveLength(1);
  });

  it('answers 404, 405 and problem+json as over HTTP', async () => {
    const app = usersApp();
    const missing = await app.request('/nope', { headers: { accept: 'application/json' } });
    expect(missing.status).toBe(404);
    expect(missing.headers.get('content-type')).toBe('application/problem+json');
    expect((await app.request('/users/1', { method: 'PUT' })).headers.get('allow')).toBe('GET, HEAD, OPTIONS');
  });

  it('drops the body of a HEAD answer and keeps its headers', async () => {
    const res = await usersApp().request('/users/1', { method: 'HEAD' });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('application/json');
    expect(await res.text()).toBe('');
  });

  it('refuses a relative path that does not start with "/"', async () => {
    await expect(usersApp().request('users/1')).rejects.toThrow(TypeError);
  });

  it('a handler that throws answers 500, never rejects', async () => {
    const app = new App();
    app.get('/', () => {
      throw new Error('secret');
    });
    const res = await app.request('/');
    expect(res.status).toBe(500);
    expect(await res.text()).not.toContain('secret');
  });
});
