import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { RouteError, Router } from '../../src/routing/router.ts';

function table(routes: [string, string][]): Router<string> {
  const r = new Router<string>();
  for (const [m, p] of routes) r.add(m, p, `${m} ${p}`);
  return r;
}

describe('router', () => {
  it('matches a static path', () => {
    const r = table([['GET', '/a/b']]);
    expect(r.match('GET', '/a/b')).toEqual({ value: 'GET /a/b', params: {} });
    expect(r.match('GET', '/a')).toBeNull();
    expect(r.match('GET', '/a/b/c')).toBeNull();
  });

  it('a static segment beats a param registered earlier', () => {
    const r = table([
      ['GET', '/users/:id'],
      ['GET', '/users/new'],
    ]);
    expect(r.match('GET', '/users/new')?.value).toBe('GET /users/new');
    expect(r.match('GET', '/users/7')?.params).toEqual({ id: '7' });
  });

  it('a constrained param beats a plain param, whatever the order', () => {
    const r = table([
      ['GET', '/p/:slug'],
      ['GET', '/p/:id{[0-9]+}'],
    ]);
    expect(r.match('GET', '/p/42')).toEqual({ value: 'GET /p/:id{[0-9]+}', params: { id: '42' } });
    expect(r.match('GET', '/p/hello')).toEqual({ value: 'GET /p/:slug', params: { slug: 'hello' } });
  });

  it('a param beats a wildcard', () => {
    const r = table([
      ['GET', '/files/*'],
      ['GET', '/files/:name'],
    ]);
    expect(r.match('GET', '/files/a')?.value).toBe('GET /files/:name');
    expect(r.match('GET', '/files/a/b')).toEqual({ value: 'GET /files/*', params: { '*': 'a/b' } });
  });

  it('a named wildcard captures the rest by name', () => {
    const r = table([['GET', '/docs/*path']]);
    expect(r.match('GET', '/docs/guide/intro')?.params).toEqual({ path: 'guide/intro' });
    expect(r.match('GET', '/docs/')?.params).toEqual({ path: '' });
    expect(r.match('GET', '/docs')).toBeNull();
  });

  it('specificity is decided left to right, backtracking when a branch dead-ends', () => {
    const r = table([
      ['GET', '/a/:x/c'],
      ['GET', '/a/b/d'],
    ]);
    expect(r.match('GET', '/a/b/c')).toEqual({ value: 'GET /a/:x/c', params: { x: 'b' } });
    expect(r.match('GET', '/a/b/d')?.value).toBe('GET /a/b/d');
  });

  it('an optional param matches with and without the segment', () => {
    const r = table([['GET', '/posts/:id?']]);
    expect(r.match('GET', '/posts/3')?.params).toEqual({ id: '3' });
    expect(r.match('GET', '/posts')?.value).toBe('GET /posts/:id?');
    expect(r.match('GET', '/posts')?.params.id).toBeUndefined();
  });

  it('a constraint may contain slashes and braces', () => {
    const r = table([['GET', '/d/:date{\\d{4}-\\d{2}}']]);
    expect(r.match('GET', '/d/2026-11')?.params).toEqual({ date: '2026-11' });
    expect(r.match('GET', '/d/26-11')).toBeNull();
  });

  it('a route for another method does not hide a less specific one for this method', () => {
    const r = table([
      ['POST', '/users/new'],
      ['GET', '/users/:id'],
    ]);
    expect(r.match('GET', '/users/new')?.params).toEqual({ id: 'new' });
    expect(r.match('POST', '/users/new')?.value).toBe('POST /users/new');
  });

  it('HEAD falls back to GET, and any method to all()', () => {
    const r = table([
      ['GET', '/g'],
      ['ALL', '/any'],
    ]);
    expect(r.match('HEAD', '/g')?.value).toBe('GET /g');
    expect(r.match('PATCH', '/any')?.value).toBe('ALL /any');
  });

  it('lists allowed methods for a path', () => {
    const r = table([
      ['GET', '/x'],
      ['POST', '/x'],
      ['DELETE', '/x/:id'],
    ]);
    expect(r.allowed('/x')).toEqual(['GET', 'HEAD', 'POST']);
    expect(r.allowed('/x/1')).toEqual(['DELETE']);
    expect(r.allowed('/nope')).toEqual([]);
  });

  it('trailing slashes are distinct paths', () => {
    const r = table([
      ['GET', '/a'],
      ['GET', '/b/'],
    ]);
    expect(r.match('GET', '/a/')).toBeNull();
    expect(r.match('GET', '/b')).toBeNull();
    expect(r.match('GET', '/b/')).not.toBeNull();
  });

  it('decodes params and matches encoded static segments', () => {
    const r = table([['GET', '/café/:name']]);
    expect(r.match('GET', '/caf%C3%A9/%E3%83%95')?.params).toEqual({ name: 'フ' });
    expect(r.match('GET', '/café/x')?.params).toEqual({ name: 'x' });
  });

  it('flags malformed percent-encoding instead of throwing', () => {
    const r = table([['GET', '/u/:id']]);
    expect(r.match('GET', '/u/%E0%A4%A')).toEqual({ value: 'GET /u/:id', params: { id: '%E0%A4%A' }, malformed: true });
  });

  it('rejects bad patterns at registration', () => {
    const r = new Router<string>();
    expect(() => r.add('GET', 'no-slash', 'x')).toThrow(RouteError);
    expect(() => r.add('GET', '/a/*/b', 'x')).toThrow(RouteError);
    expect(() => r.add('GET', '/a/:id{[}', 'x')).toThrow(RouteError);
    r.add('GET', '/dup', 'x');
    expect(() => r.add('GET', '/dup', 'y')).toThrow(/twice/);
  });

  it('never throws on any path string', () => {
    const r = table([
      ['GET', '/'],
      ['GET', '/a/:b'],
      ['GET', '/a/:b{[0-9]+}/c'],
      ['POST', '/x/*'],
      ['GET', '/café/:n?'],
    ]);
    fc.assert(
      fc.property(fc.oneof(fc.string(), fc.string({ unit: 'grapheme' }), fc.webPath(), fc.constantFrom('%', '/%', '/a/%zz', '//', '/a//b')), (path) => {
        r.match('GET', path);
        r.match('POST', path);
        r.allowed(path);
      }),
      { numRuns: 1000 },
    );
  });

  it('matched params round-trip through percent-encoding', () => {
    const r = table([
      ['GET', '/a/:first/b/:second'],
      ['GET', '/w/*rest'],
    ]);
    const segment = fc.string({ unit: 'grapheme', minLength: 1, maxLength: 30 });
    fc.assert(
      fc.property(segment, segment, (first, second) => {
        const m = r.match('GET', `/a/${encodeURIComponent(first)}/b/${encodeURIComponent(second)}`);
        expect(m?.params).toEqual({ first, second });
        const w = r.match('GET', `/w/${encodeURIComponent(first)}/${encodeURIComponent(second)}`);
        expect(w?.params).toEqual({ rest: `${first}/${second}` });
      }),
      { numRuns: 1000 },
    );
  });

  it('names the first param whose decoded value is over the limit, and only then', () => {
    const r = table([
      ['GET', '/a/:first/b/:second'],
      ['GET', '/w/*rest'],
    ]);
    const segment = fc.string({ unit: 'grapheme', minLength: 1, maxLength: 12 });
    fc.assert(
      fc.property(segment, segment, fc.integer({ min: 0, max: 40 }), (first, second, max) => {
        const m = r.match('GET', `/a/${encodeURIComponent(first)}/b/${encodeURIComponent(second)}`, max);
        const expected = first.length > max ? 'first' : second.length > max ? 'second' : undefined;
        expect(m?.tooLong).toBe(expected);
        expect(m?.params).toEqual({ first, second });
      }),
      { numRuns: 1000 },
    );
    expect(r.match('GET', '/w/abc/def', 6)?.tooLong).toBe('rest');
    expect(r.match('GET', '/w/abc/def')?.tooLong).toBeUndefined();
  });

  it('the most specific of random static/param tables wins regardless of registration order', () => {
    fc.assert(
      fc.property(fc.shuffledSubarray(['/s/:p', '/s/static', '/s/:n{[0-9]+}', '/s/*'], { minLength: 4, maxLength: 4 }), (order) => {
        const r = table(order.map((p) => ['GET', p] as [string, string]));
        expect(r.match('GET', '/s/static')?.value).toBe('GET /s/static');
        expect(r.match('GET', '/s/12')?.value).toBe('GET /s/:n{[0-9]+}');
        expect(r.match('GET', '/s/abc')?.value).toBe('GET /s/:p');
        expect(r.match('GET', '/s/a/b')?.value).toBe('GET /s/*');
      }),
    );
  });
});

describe('router, against peers’ suites', () => {
  it('two optional params register, and the earlier one takes a lone value', () => {
    const r = table([['GET', '/v1/:version?/:platform?']]);
    expect(r.match('GET', '/v1')?.params).toEqual({});
    expect(r.match('GET', '/v1/a')?.params).toEqual({ version: 'a' });
    expect(r.match('GET', '/v1/a/b')?.params).toEqual({ version: 'a', platform: 'b' });
  });

  it('a registration that collides leaves nothing behind', () => {
    const r = table([['GET', '/v2/x']]);
    expect(() => r.add('GET', '/v2/:a?/x', 'second')).toThrow(RouteError);
    expect(r.match('GET', '/v2')).toBeNull();
    expect(r.match('GET', '/v2/x')?.value).toBe('GET /v2/x');
  });

  it('a constrained param whose pattern accepts the empty string matches an empty last segment', () => {
    const r = table([['GET', '/files/:name{.*}']]);
    expect(r.match('GET', '/files/')?.params).toEqual({ name: '' });
    expect(r.match('GET', '/files/a.txt')?.params).toEqual({ name: 'a.txt' });
  });

  it('a plain param never matches an empty segment', () => {
    const r = table([['GET', '/a/:p']]);
    expect(r.match('GET', '/a/')).toBeNull();
  });

  it('methods match case-insensitively', () => {
    const r = table([
      ['purge', '/cache'],
      ['GET', '/x'],
    ]);
    expect(r.match('PURGE', '/cache')?.value).toBe('purge /cache');
    expect(r.match('purge', '/cache')?.value).toBe('purge /cache');
    expect(r.match('get', '/x')?.value).toBe('GET /x');
  });

  it('refuses a repeated param name, __proto__ as a name, and segments no request can have', () => {
    expect(() => table([['GET', '/a/:id/:id']])).toThrow(/named twice/);
    expect(() => table([['GET', '/a/:__proto__']])).toThrow(/__proto__/);
    for (const p of ['/a//b', '/a/../b', '/a/./b', '/a/x%2Fy']) expect(() => table([['GET', p]]), p).toThrow(RouteError);
  });

  it('params are own values only: a missing optional param named like a prototype member is absent', async () => {
    const { App } = await import('../../src/index.ts');
    const app = new App().get('/api/:kind/:constructor?', (c) => c.json({ value: c.req.param('constructor') ?? null }));
    const res = await app.fetch(new Request('http://localhost/api/x'));
    expect(await res.json()).toEqual({ value: null });
  });
});

describe('registration', () => {
  it('a bad or repeated route throws when it is registered, not at the first request', async () => {
    const { App } = await import('../../src/index.ts');
    const app = new App().get('/a/:id', (c) => c.text('a'));
    expect(() => app.get('/a/:other', (c) => c.text('b'))).toThrow(/registered twice/);
    expect(() => app.get('/b/:id/:id', (c) => c.text('b'))).toThrow(/named twice/);
    expect(() => app.get('/c//d', (c) => c.text('c'))).toThrow(RouteError);
    expect((await app.fetch(new Request('http://localhost/a/1'))).status).toBe(200);
  });
});

describe('unrouted: a static path with no route for the method', () => {
  it('answers as match() does, the first time and when remembered', () => {
    const r = new Router<string>();
    r.add('GET', '/api/data', 'get');
    r.add('OPTIONS', '/api/:name', 'options-param');
    r.add('GET', '/only', 'only');
    for (let round = 0; round < 2; round++) {
      // A param route answers OPTIONS /api/data: not unrouted.
      expect(r.unrouted('OPTIONS', '/api/data')).toBe(false);
      expect(r.match('OPTIONS', '/api/data')?.value).toBe('options-param');
      expect(r.unrouted('OPTIONS', '/only')).toBe(true);
      expect(r.match('OPTIONS', '/only')).toBeNull();
      expect(r.unrouted('DELETE', '/only')).toBe(true);
      // A route of the method, a path that is no static route's, TRACE: never unrouted.
      expect(r.unrouted('GET', '/only')).toBe(false);
      expect(r.unrouted('HEAD', '/only')).toBe(false);
      expect(r.unrouted('get', '/only')).toBe(false);
      expect(r.unrouted('OPTIONS', '/other')).toBe(false);
      expect(r.unrouted('TRACE', '/only')).toBe(false);
    }
  });

  it('the app answers such requests as before: OPTIONS 204 with Allow, 405, a param route of the method', async () => {
    const { App } = await import('../../src/index.ts');
    const app = new App().get('/api/data', (c) => c.text('get')).delete('/api/:id', (c) => c.text(`delete ${c.req.param('id')}`));
    for (let round = 0; round < 2; round++) {
      const options = await app.fetch(new Request('http://localhost/api/data', { method: 'OPTIONS' }));
      expect(options.status).toBe(204);
      expect(options.headers.get('allow')).toBe('GET, HEAD, DELETE, OPTIONS');
      const post = await app.fetch(new Request('http://localhost/api/data', { method: 'POST' }));
      expect(post.status).toBe(405);
      const del = await app.fetch(new Request('http://localhost/api/data', { method: 'DELETE' }));
      expect(await del.text()).toBe('delete data');
    }
    // A route added later is seen: the table, and what it remembers, is made again.
    app.post('/api/data', (c) => c.text('post'));
    expect(await (await app.fetch(new Request('http://localhost/api/data', { method: 'POST' }))).text()).toBe('post');
  });
});
