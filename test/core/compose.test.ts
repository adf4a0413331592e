import { describe, expect, it } from 'vitest';
import { App } from '../../src/index.ts';

// Middleware that returns next() instead of awaiting it: the onion must behave exactly as with
// async middleware (order, early answers, headers, errors, c.res), and when every layer is
// synchronous the app answers without a promise.

describe('compose: synchronous middleware', () => {
  it('answers without a promise when every layer is synchronous', async () => {
    const app = new App();
    const seen: string[] = [];
    app.use((c, next) => {
      seen.push('a');
      c.header('x-a', '1');
      return next();
    });
    app.use((c, next) => {
      seen.push('b');
      c.set('who', 'b');
      return next();
    });
    app.get('/', (c) => c.text(`hi ${c.get('who')}`));
    const out = app.fetch(new Request('http://x/'));
    expect(out).toBeInstanceOf(Response);
    const res = out as Response;
    expect(await res.text()).toBe('hi b');
    expect(res.headers.get('x-a')).toBe('1');
    expect(seen).toEqual(['a', 'b']);
  });

  it('waits for an async layer inside a synchronous one, and an async outer layer sees c.res', async () => {
    const app = new App();
    const order: string[] = [];
    app.use(async (c, next) => {
      order.push('outer in');
      await next();
      order.push(`outer out ${c.res.status}`);
      c.res.headers.set('x-outer', 'yes');
    });
    app.use((_c, next) => {
      order.push('sync');
      return next();
    });
    app.get('/', async (c) => {
      await new Promise((ok) => setTimeout(ok, 5));
      order.push('handler');
      return c.json({ ok: true }, 201);
    });
    const res = await app.fetch(new Request('http://x/'));
    expect(res.status).toBe(201);
    expect(res.headers.get('x-outer')).toBe('yes');
    expect(order).toEqual(['outer in', 'sync', 'handler', 'outer out 201']);
  });

  it('answers early from a synchronous middleware', async () => {
    const app = new App();
    app.use((c, next) => (c.req.header('authorization') ? next() : c.json({ title: 'Unauthorized' }, 401)));
    app.get('/', (c) => c.text('in'));
    expect((await app.fetch(new Request('http://x/'))).status).toBe(401);
    expect(await (await app.fetch(new Request('http://x/', { headers: { authorization: 'x' } }))).text()).toBe('in');
  });

  it('turns an error under synchronous middleware into the error response, synchronous handler or async', async () => {
    const app = new App();
    app.onError((error, c) => c.json({ caught: (error as Error).message }, 500));
    app.use((_c, next) => next());
    app.get('/sync', () => {
      throw new Error('sync boom');
    });
    app.get('/async', async () => {
      throw new Error('async boom');
    });
    for (const path of ['sync', 'async']) {
      const res = await app.fetch(new Request(`http://x/${path}`));
      expect(res.status).toBe(500);
      expect(await res.json()).toEqual({ caught: `${path} boom` });
    }
  });

  it('refuses a second next() from a synchronous middleware', async () => {
    const app = new App();
    app.use((_c, next) => {
      void next();
      return next();
    });
    app.get('/', (c) => c.text('once'));
    const res = await app.fetch(new Request('http://x/'));
    expect(res.status).toBe(500);
  });

  it('reports a chain that ends without a response', async () => {
    const app = new App();
    app.use((_c, next) => next());
    app.get('/', (() => undefined) as never);
    const res = await app.fetch(new Request('http://x/'));
    expect(res.status).toBe(500);
  });
});
