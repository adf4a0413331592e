// Route params typed from the pattern. The type assertions are checked by `tsc --noEmit`
// (npm test runs it over test/); the runtime assertions show the types tell the truth.
import { describe, expect, expectTypeOf, it } from 'vitest';
import { z } from 'zod';
import { App, type Env, type Handler, validate } from '../src/index.ts';
import type { ParamKeys, ParamName, PathParams } from '../src/routing/path-params.ts';

describe('typed params', () => {
  it('a declared param is a string, and the names come from the pattern', async () => {
    const app = new App();
    app.get('/users/:id', (c) => {
      expectTypeOf(c.req.param('id')).toEqualTypeOf<string>();
      // @ts-expect-error: the pattern has no `nope`
      c.req.param('nope');
      return c.text(c.req.param('id'));
    });
    expect(await (await app.request('/users/42')).text()).toBe('42');
  });

  it('optional params are string | undefined, and absent at run time when missing', async () => {
    const app = new App();
    app.get('/v1/:version?/:platform?', (c) => {
      expectTypeOf(c.req.param('version')).toEqualTypeOf<string | undefined>();
      expectTypeOf(c.req.param().platform).toEqualTypeOf<string | undefined>();
      return c.json({ version: c.req.param('version') ?? null, platform: c.req.param('platform') ?? null });
    });
    expect(await (await app.request('/v1')).json()).toEqual({ version: null, platform: null });
    expect(await (await app.request('/v1/a')).json()).toEqual({ version: 'a', platform: null });
  });

  it('constraints, wildcards and several params', async () => {
    const app = new App();
    app.get('/d/:date{\\d{4}-\\d{2}}/:n{[0-9]+}?', (c) => {
      expectTypeOf(c.req.param('date')).toEqualTypeOf<string>();
      expectTypeOf(c.req.param('n')).toEqualTypeOf<string | undefined>();
      return c.json(c.req.param());
    });
    app.get('/files/*path', (c) => {
      expectTypeOf(c.req.param('path')).toEqualTypeOf<string>();
      return c.text(c.req.param('path'));
    });
    app.get('/any/*', (c) => c.text(c.req.param('*')));
    expect(await (await app.request('/d/2026-11/3')).json()).toEqual({ date: '2026-11', n: '3' });
    expect(await (await app.request('/files/a/b.txt')).text()).toBe('a/b.txt');
    expect(await (await app.request('/any/x/y')).text()).toBe('x/y');
  });

  it('every route adder and middleware before the handler see the same pattern', async () => {
    const app = new App();
    app.post('/orgs/:org/users', validate('json', z.object({ name: z.string() })), (c) => {
      expectTypeOf(c.req.param('org')).toEqualTypeOf<string>();
      expectTypeOf(c.valid('json')).toEqualTypeOf<{ name: string }>();
      return c.json({ org: c.req.param('org'), ...c.valid('json') });
    });
    app.method('PURGE', '/cache/:key', (c) => c.text(c.req.param('key')));
    app.all('/all/:x', (c) => c.text(c.req.param('x')));
    const res = await app.request('/orgs/acme/users', { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"name":"Ada"}' });
    expect(await res.json()).toEqual({ org: 'acme', name: 'Ada' });
    expect(await (await app.request('/cache/k1', { method: 'PURGE' })).text()).toBe('k1');
  });

  it('middleware and handlers written apart stay untyped: any name, string | undefined', () => {
    const mw: Handler = async (c, next) => {
      expectTypeOf(c.req.param('anything')).toEqualTypeOf<string | undefined>();
      await next();
    };
    const app = new App();
    app.use(mw);
    app.get('/x/:id', mw, (c) => c.text(c.req.param('id')));
    expectTypeOf<ParamName<string>>().toEqualTypeOf<string>();
    expectTypeOf<PathParams<string>>().toEqualTypeOf<Record<string, string>>();
  });

  it('a handler written apart keeps the names when typed with ParamKeys', async () => {
    const show: Handler<Env, {}, ParamKeys<'/users/:id'>> = (c) => {
      // @ts-expect-error: not a param of /users/:id
      c.req.param('nope');
      return c.text(c.req.param('id'));
    };
    const app = new App();
    app.get('/users/:id', show);
    expect(await (await app.request('/users/5')).text()).toBe('5');
  });

  it('a pattern without params takes no names', () => {
    expectTypeOf<ParamKeys<'/'>>().toEqualTypeOf<never>();
    expectTypeOf<ParamKeys<'/a/b/c'>>().toEqualTypeOf<never>();
    expectTypeOf<ParamName<never>>().toEqualTypeOf<never>();
    expectTypeOf<ParamKeys<'/a/:b/c/:d?'>>().toEqualTypeOf<'b' | 'd?'>();
    expectTypeOf<ParamName<ParamKeys<'/a/:b/c/:d?'>>>().toEqualTypeOf<'b' | 'd'>();
    expectTypeOf<ParamKeys<'/x/:n{[0-9]+}?/:s{a/b}/*rest'>>().toEqualTypeOf<'n?' | 's' | 'rest'>();
    expectTypeOf<ParamKeys<'*'>>().toEqualTypeOf<'*'>();
    expectTypeOf<ParamKeys<'/a:b'>>().toEqualTypeOf<never>();
  });
});
