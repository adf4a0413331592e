// An error that escapes a handler or middleware is logged once by default, and the client gets
// the same clean 500 as before. The same over real HTTP on every runtime: test/adapters/error-log.test.ts.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { App, HttpError } from '../../src/index.ts';
import { requestId } from '../../src/middleware/request-id/index.ts';

let logged: unknown[][];
beforeEach(() => {
  logged = [];
  vi.spyOn(console, 'error').mockImplementation((...args: unknown[]) => void logged.push(args));
});
afterEach(() => vi.restoreAllMocks());

/** What was logged, as one string per call (an Error with its stack). */
function lines(): string[] {
  return logged.map((args) => args.map((a) => (a instanceof Error ? (a.stack ?? String(a)) : String(a))).join(' '));
}

describe('errors that escape are logged', () => {
  it('logs a thrown error once, with the method, the path and the stack; the 500 shows nothing', async () => {
    const app = new App();
    app.get('/boom', () => {
      throw new Error('the database is down');
    });
    const res = await app.request('/boom');
    expect(res.status).toBe(500);
    expect(await res.text()).not.toContain('database');
    expect(lines()).toHaveLength(1);
    expect(lines()[0]).toMatch(/^rove: GET \/boom failed: Error: the database is down\n\s+at /);
  });

  it('logs a rejection, and an error in middleware before or after next(), each once', async () => {
    const app = new App();
    app.use('/after', async (_c, next) => {
      await next();
      throw new Error('after');
    });
    app.use('/before', () => {
      throw new Error('before');
    });
    app.get('/async', async () => Promise.reject(new Error('async')));
    app.get('/after', (c) => c.text('ok'));
    app.get('/before', (c) => c.text('ok'));
    for (const path of ['/async', '/after', '/before']) expect((await app.request(path)).status).toBe(500);
    expect(lines().map((l) => l.split('\n')[0])).toEqual([
      'rove: GET /async failed: Error: async',
      'rove: GET /after failed: Error: after',
      'rove: GET /before failed: Error: before',
    ]);
  });

  it('names the request id when requestId() set one', async () => {
    const app = new App();
    app.use(requestId());
    app.post('/orders', () => {
      throw new TypeError('bad total');
    });
    const res = await app.request('/orders', { method: 'POST', headers: { 'x-request-id': 'req-42' } });
    expect(res.status).toBe(500);
    expect(lines()[0]).toMatch(/^rove: POST \/orders \(request req-42\) failed: TypeError: bad total/);
  });

  it('does not log an HttpError under 500, a 404 or a bad request; logs an HttpError of 500 or more', async () => {
    const app = new App();
    app.get('/teapot', () => {
      throw new HttpError(418);
    });
    app.get('/busy', () => {
      throw new HttpError(503, 'maintenance');
    });
    app.post('/json', async (c) => c.json(await c.req.json()));
    expect((await app.request('/teapot')).status).toBe(418);
    expect((await app.request('/nowhere')).status).toBe(404);
    expect((await app.request('/json', { method: 'POST', body: '{', headers: { 'content-type': 'application/json' } })).status).toBe(400);
    expect(lines()).toEqual([]);
    expect((await app.request('/busy')).status).toBe(503);
    expect(lines()).toHaveLength(1);
    expect(lines()[0]).toMatch(/^rove: GET \/busy failed: HttpError: maintenance/);
  });

  it('leaves the report to app.onError when there is one', async () => {
    const app = new App();
    const seen: unknown[] = [];
    app.onError((error, c) => {
      seen.push(error);
      return c.text('sorry', 500);
    });
    app.get('/boom', () => {
      throw new Error('mine');
    });
    expect(await (await app.request('/boom')).text()).toBe('sorry');
    expect(seen).toHaveLength(1);
    expect(lines()).toEqual([]);
  });

  it('logs what an onError that fails throws, once', async () => {
    const app = new App();
    app.onError(() => {
      throw new Error('the error handler broke');
    });
    app.get('/boom', () => {
      throw new Error('first');
    });
    expect((await app.request('/boom')).status).toBe(500);
    expect(lines()).toHaveLength(1);
    expect(lines()[0]).toMatch(/^rove: GET \/boom failed: Error: the error handler broke/);
  });

  it('logs a response the handler built that cannot be sent', async () => {
    const app = new App();
    app.get('/nothing', () => undefined as unknown as Response);
    expect((await app.request('/nothing')).status).toBe(500);
    expect(lines()[0]).toMatch(/^rove: GET \/nothing failed: TypeError: A handler must return a Response/);
  });
});
