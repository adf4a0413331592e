// Request events, run in process through app.fetch / app.handle: one test per way a request can end.
import { describe, expect, it } from 'vitest';
import type { ExecutionContext } from '../../src/core/context.ts';
import { App, BodyError, HttpError, type RoveEvent, type StandardSchemaV1, validate } from '../../src/index.ts';

const ANY_NUMBER = {
  '~standard': { version: 1, vendor: 'test', validate: (v: unknown) => (typeof v === 'number' ? { value: v } : { issues: [{ message: 'not a number' }] }) },
} as StandardSchemaV1<unknown, number>;
const QUERY_X = {
  '~standard': {
    version: 1,
    vendor: 'test',
    validate: (v: unknown) => ((v as Record<string, string>).x ? { value: v } : { issues: [{ message: 'x is required', path: ['x'] }] }),
  },
} as StandardSchemaV1;

function makeApp() {
  const app = new App({ bodyLimit: 16, maxUrlLength: 100 });
  app.get('/users/:id', (c) => c.json({ id: c.req.param('id') }));
  app.get('/slow', async (c) => {
    await new Promise((r) => setTimeout(r, 25));
    return c.text('late');
  });
  app.get('/boom', () => {
    throw new Error('kaboom');
  });
  app.get('/forbidden', () => {
    throw new HttpError(403, 'no');
  });
  app.post('/json', async (c) => c.json(await c.req.json()));
  app.post('/form', async (c) => c.json(await c.req.form()));
  app.post('/validated', validate('json', ANY_NUMBER), (c) => c.json(c.valid('json')));
  app.get('/q', validate('query', QUERY_X), (c) => c.text('ok'));
  app.get('/unicode', (c) => c.json({ word: 'héllo €' }));
  app.get('/nothing', () => undefined as unknown as Response);
  app.get('/raw', () => new Response('raw body', { headers: { 'content-length': '8' } }));
  app.post('/users/:id', (c) => c.text('posted'));
  return app;
}

/** Collect every event of one request. */
async function run(app: App, input: string | Request, init?: RequestInit, ctx?: ExecutionContext, handle = app.fetch) {
  const seen: RoveEvent[] = [];
  const off = app.on((e) => void seen.push(e));
  const req = typeof input === 'string' ? new Request(`http://localhost${input}`, init) : input;
  const res = await handle(req, {}, ctx);
  const body = await res.text();
  off();
  const kinds = seen.map((e) => e.kind);
  const complete = seen.find((e) => e.kind === 'request:complete') as RoveEvent<'request:complete'> | undefined;
  return { res, body, seen, kinds, meta: complete?.metadata };
}

describe('request events', () => {
  it('a matched route reports method, path, route pattern, status, duration and agent', async () => {
    const before = Date.now();
    const { kinds, meta, seen } = await run(makeApp(), '/users/42', { headers: { 'user-agent': 'test-agent/1.0' } });
    expect(kinds).toEqual(['request:complete']);
    expect(meta).toMatchObject({ method: 'GET', path: '/users/42', route: '/users/:id', status: 200, error: undefined });
    expect(meta!.durationMs).toBeGreaterThanOrEqual(0);
    // A real Response built from a string carries no Content-Length: its size is not known before it is sent.
    expect(meta!.responseSize).toBeUndefined();
    expect(meta!.requestSize).toBeUndefined();
    expect(meta!.userAgent).toBe('test-agent/1.0');
    expect(meta!.header('user-agent')).toBe('test-agent/1.0');
    expect(seen[0].timestamp).toBeGreaterThanOrEqual(before);
    expect(seen[0].timestamp).toBeLessThanOrEqual(Date.now());
  });

  it('durationMs covers an async handler', async () => {
    const { meta } = await run(makeApp(), '/slow');
    expect(meta!.durationMs).toBeGreaterThanOrEqual(20);
  });

  it('a request body reports its size', async () => {
    const { meta } = await run(makeApp(), '/json', { method: 'POST', body: '{"a":1}', headers: { 'content-type': 'application/json', 'content-length': '7' } });
    expect(meta).toMatchObject({ status: 200, requestSize: 7, route: '/json' });
  });

  it('a thrown error answers 500 and reports request:error with the error', async () => {
    const { kinds, seen } = await run(makeApp(), '/boom');
    expect(kinds).toEqual(['request:complete', 'request:error']);
    const err = seen[1] as RoveEvent<'request:error'>;
    expect(err.metadata).toMatchObject({ status: 500, route: '/boom' });
    expect((err.metadata.error as Error).message).toBe('kaboom');
  });

  it('an HttpError reports its status and the error', async () => {
    const { kinds, meta } = await run(makeApp(), '/forbidden');
    expect(kinds).toEqual(['request:complete', 'request:error']);
    expect(meta!.status).toBe(403);
    expect(meta!.error).toBeInstanceOf(HttpError);
  });

  it('an unknown path reports 404 with no route and no thrown error', async () => {
    const { kinds, meta } = await run(makeApp(), '/nowhere');
    expect(kinds).toEqual(['request:complete', 'request:error']);
    expect(meta).toMatchObject({ status: 404, route: null, path: '/nowhere', error: undefined });
  });

  it('a known path under another method reports 405', async () => {
    const { kinds, meta } = await run(makeApp(), '/users/1', { method: 'DELETE' });
    expect(kinds).toEqual(['request:complete', 'request:error']);
    expect(meta).toMatchObject({ status: 405, route: null, method: 'DELETE' });
    expect((meta!.error as HttpError).status).toBe(405);
  });

  it('an automatic OPTIONS answer is a plain completion', async () => {
    const { kinds, meta } = await run(makeApp(), '/users/1', { method: 'OPTIONS' });
    expect(kinds).toEqual(['request:complete']);
    expect(meta).toMatchObject({ status: 204, route: null, responseSize: 0 });
  });

  it('HEAD reports the GET route', async () => {
    const { meta } = await run(makeApp(), '/users/7', { method: 'HEAD' });
    expect(meta).toMatchObject({ method: 'HEAD', status: 200, route: '/users/:id' });
  });

  it('a URL over the limit reports 414 before routing', async () => {
    const { kinds, meta } = await run(makeApp(), `/users/${'x'.repeat(200)}`);
    expect(kinds).toEqual(['request:complete', 'request:error']);
    expect(meta).toMatchObject({ status: 414, route: null });
  });

  it('malformed percent-encoding reports 400', async () => {
    const { meta } = await run(makeApp(), '/users/%E0%A4%A');
    expect(meta).toMatchObject({ status: 400, route: null });
  });

  it('a body over the limit reports body:rejected (too-large)', async () => {
    const { kinds, seen } = await run(makeApp(), '/json', { method: 'POST', body: JSON.stringify({ long: 'x'.repeat(100) }) });
    expect(kinds).toEqual(['request:complete', 'request:error', 'body:rejected']);
    const rejected = seen[2] as RoveEvent<'body:rejected'>;
    expect(rejected.metadata).toMatchObject({ status: 413, reason: 'too-large', route: '/json' });
    expect(rejected.metadata.error.status).toBe(413);
  });

  it('invalid JSON reports body:rejected (invalid)', async () => {
    const { kinds, seen } = await run(makeApp(), '/json', { method: 'POST', body: '{nope' });
    expect(kinds).toEqual(['request:complete', 'request:error', 'body:rejected']);
    expect((seen[2] as RoveEvent<'body:rejected'>).metadata).toMatchObject({ status: 400, reason: 'invalid' });
  });

  it('a body failing validation reports body:rejected (invalid)', async () => {
    const { kinds, meta } = await run(makeApp(), '/validated', { method: 'POST', headers: { 'content-type': 'application/json' }, body: '"text"' });
    expect(meta!.status).toBe(400);
    expect(kinds).toContain('body:rejected');
  });

  it('a form endpoint given another type reports body:rejected (unsupported-type)', async () => {
    const { seen } = await run(makeApp(), '/form', { method: 'POST', body: 'x', headers: { 'content-type': 'text/plain' } });
    expect((seen.find((e) => e.kind === 'body:rejected') as RoveEvent<'body:rejected'>).metadata).toMatchObject({ status: 415, reason: 'unsupported-type' });
  });

  it('a handler’s own 413 or 400 is no body rejection; a BodyError it throws is', async () => {
    const app = new App()
      .post('/own', () => {
        throw new HttpError(413, 'Invalid JSON body');
      })
      .post('/body', () => {
        throw new BodyError('invalid', 422, 'The order has no lines');
      });
    expect((await run(app, '/own', { method: 'POST', body: 'x' })).kinds).toEqual(['request:complete', 'request:error']);
    const { seen } = await run(app, '/body', { method: 'POST', body: 'x' });
    expect((seen.find((e) => e.kind === 'body:rejected') as RoveEvent<'body:rejected'>).metadata).toMatchObject({ status: 422, reason: 'invalid' });
  });

  it('a query failing validation is a request error but no body rejection', async () => {
    const { kinds, meta } = await run(makeApp(), '/q');
    expect(meta!.status).toBe(400);
    expect(kinds).toEqual(['request:complete', 'request:error']);
  });

  it('a handler that returns nothing answers and reports a 500 with the error', async () => {
    const app = makeApp();
    const seen: RoveEvent[] = [];
    app.on((e) => void seen.push(e));
    const res = await app.fetch(new Request('http://localhost/nothing'));
    expect(res.status).toBe(500);
    expect(await res.json()).toEqual({ type: 'about:blank', title: 'Internal Server Error', status: 500 });
    expect(seen.map((e) => e.kind)).toEqual(['request:complete', 'request:error']);
    expect((seen[0] as RoveEvent<'request:complete'>).metadata).toMatchObject({ status: 500, route: '/nothing' });
    expect(String((seen[0] as RoveEvent<'request:complete'>).metadata.error)).toMatch(/must return a Response/);
  });

  it('the status is the one the error handler chose', async () => {
    const app = makeApp();
    app.onError((_error, c) => c.text('teapot', 418));
    const { meta } = await run(app, '/boom');
    expect(meta).toMatchObject({ status: 418 });
    expect((meta!.error as Error).message).toBe('kaboom');
  });

  it('a handler-built Response reports its content-length', async () => {
    const { meta } = await run(makeApp(), '/raw');
    expect(meta!.responseSize).toBe(8);
  });

  it('the client address comes from the binding the adapter installs, only when read', async () => {
    const app = makeApp();
    let asked = 0;
    const handle = app.bind({
      address: () => {
        asked++;
        return '203.0.113.9';
      },
    });
    const { meta } = await run(app, '/users/1', undefined, undefined, handle);
    expect(asked).toBe(0);
    expect(meta!.clientAddress).toBe('203.0.113.9');
    expect(asked).toBe(1);
  });

  it('metadata serializes to JSON with its lazy fields', async () => {
    const { meta } = await run(makeApp(), '/boom', { headers: { 'user-agent': 'ua' } });
    const json = JSON.parse(JSON.stringify(meta));
    expect(json).toMatchObject({ method: 'GET', path: '/boom', route: '/boom', status: 500, userAgent: 'ua', error: { name: 'Error', message: 'kaboom' } });
    expect(typeof json.durationMs).toBe('number');
  });

  it('listeners of a kind hear only that kind', async () => {
    const app = makeApp();
    const errors: string[] = [];
    app.on('request:error', (e) => void errors.push(e.metadata.path));
    await app.fetch(new Request('http://localhost/users/1'));
    await app.fetch(new Request('http://localhost/boom'));
    expect(errors).toEqual(['/boom']);
  });

  it('a mounted app reports its full route pattern', async () => {
    const app = new App();
    const api = new App();
    api.get('/items/:id', (c) => c.text('item'));
    app.route('/api', api);
    const { meta } = await run(app, '/api/items/3');
    expect(meta).toMatchObject({ route: '/api/items/:id', status: 200 });
  });
});
