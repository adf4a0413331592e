import * as v from 'valibot';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { htmlErrorPage } from '../src/core/error-page.ts';
import { getCookie, setCookie } from '../src/http/cookie.ts';
import { App, bodyLimit, HttpError, validate } from '../src/index.ts';
import { redirectTrailingSlash } from '../src/routing/trailing-slash.ts';
import { createViews } from '../src/views/index.ts';

const req = (path: string, init?: RequestInit) => new Request(`http://localhost${path}`, init);

describe('app > middleware', () => {
  it('runs as an onion in registration order', async () => {
    const app = new App();
    const log: string[] = [];
    app.use(async (c, next) => {
      log.push('a>');
      await next();
      log.push('<a');
      c.res.headers.set('x-outer', '1');
    });
    app.use(async (_c, next) => {
      log.push('b>');
      await next();
      log.push('<b');
    });
    app.get('/', (c) => {
      log.push('h');
      return c.text('ok');
    });
    const res = await app.fetch(req('/'));
    expect(log).toEqual(['a>', 'b>', 'h', '<b', '<a']);
    expect(res.headers.get('x-outer')).toBe('1');
  });

  it('applies middleware registered after the route too, scoped by prefix', async () => {
    const app = new App();
    app.get('/api/x', (c) => c.text(String(c.get('tag'))));
    app.get('/other', (c) => c.text(String(c.get('tag'))));
    app.use('/api', async (c, next) => {
      c.set('tag', 'api');
      await next();
    });
    expect(await (await app.fetch(req('/api/x'))).text()).toBe('api');
    expect(await (await app.fetch(req('/other'))).text()).toBe('undefined');
  });

  it('guards a prefix that only some requests of a param route fall under', async () => {
    const app = new App();
    app.use('/users/admin', async (c, next) => {
      c.header('x-admin', 'yes');
      await next();
    });
    app.get('/users/:id', (c) => c.text(c.req.param('id')!));
    expect((await app.fetch(req('/users/admin'))).headers.get('x-admin')).toBe('yes');
    expect((await app.fetch(req('/users/bob'))).headers.get('x-admin')).toBeNull();
  });

  it('calling next twice is an error', async () => {
    const app = new App();
    app.use(async (_c, next) => {
      await next();
      await next();
    });
    app.get('/', (c) => c.text('ok'));
    const res = await app.fetch(req('/'));
    expect(res.status).toBe(500);
  });

  it('outer middleware sees the error response of an inner handler', async () => {
    const app = new App();
    let seen = 0;
    app.use(async (c, next) => {
      await next();
      seen = c.res.status;
    });
    app.get('/', () => {
      throw new HttpError(418, 'teapot');
    });
    const res = await app.fetch(req('/'));
    expect(res.status).toBe(418);
    expect(seen).toBe(res.status);
  });

  it('middleware runs for 404s and may answer OPTIONS itself', async () => {
    const app = new App();
    app.use(async (c, next) => {
      if (c.req.method === 'OPTIONS') return c.body(null, 204, { 'access-control-allow-origin': '*' });
      await next();
      c.res.headers.set('x-seen', '1');
    });
    app.get('/x', (c) => c.text('x'));
    const miss = await app.fetch(req('/missing'));
    expect(miss.status).toBe(404);
    expect(miss.headers.get('x-seen')).toBe('1');
    const pre = await app.fetch(req('/x', { method: 'OPTIONS' }));
    expect(pre.headers.get('access-control-allow-origin')).toBe('*');
  });
});

describe('app > routing semantics', () => {
  it('mounts a sub-app under a prefix with its own middleware', async () => {
    const api = new App();
    api.use(async (c, next) => {
      c.header('x-api', '1');
      await next();
    });
    api.get('/items/:id', (c) => c.json({ id: c.req.param('id') }));
    const app = new App().get('/', (c) => c.text('root')).route('/api', api);
    const res = await app.fetch(req('/api/items/3'));
    expect(await res.json()).toEqual({ id: '3' });
    expect(res.headers.get('x-api')).toBe('1');
    expect((await app.fetch(req('/'))).headers.get('x-api')).toBeNull();
    expect(app.routeList).toEqual([
      { method: 'GET', path: '/' },
      { method: 'GET', path: '/api/items/:id' },
    ]);
  });

  it('HEAD runs the GET handler and keeps its body, which the server drops while keeping its length', async () => {
    const app = new App().get('/', (c) => c.text('hello'));
    const res = await app.fetch(req('/', { method: 'HEAD' }));
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^text\/plain/);
    // A null body would make Deno and Bun send Content-Length: 0, which RFC 9110 forbids for HEAD.
    expect(await res.text()).toBe('hello');
  });

  it('answers 405 with Allow, and OPTIONS with Allow unless handled', async () => {
    const app = new App()
      .get('/a', (c) => c.text('a'))
      .post('/a', (c) => c.text('a'))
      .options('/b', (c) => c.text('mine'))
      .get('/b', (c) => c.text('b'));
    const res = await app.fetch(req('/a', { method: 'DELETE' }));
    expect(res.status).toBe(405);
    expect(res.headers.get('allow')).toBe('GET, HEAD, POST, OPTIONS');
    const opt = await app.fetch(req('/a', { method: 'OPTIONS' }));
    expect(opt.status).toBe(204);
    expect(opt.headers.get('allow')).toBe('GET, HEAD, POST, OPTIONS');
    expect(await (await app.fetch(req('/b', { method: 'OPTIONS' }))).text()).toBe('mine');
  });

  it('redirects to the other trailing-slash form when asked to', async () => {
    const app = new App({ trailingSlash: redirectTrailingSlash }).get('/a', (c) => c.text('a')).post('/b/', (c) => c.text('b'));
    const res = await app.fetch(req('/a/?q=1'));
    expect(res.status).toBe(301);
    expect(res.headers.get('location')).toBe('/a?q=1');
    const post = await app.fetch(req('/b', { method: 'POST' }));
    expect(post.status).toBe(308);
    expect(post.headers.get('location')).toBe('/b/');
    const strict = new App().get('/a', (c) => c.text('a'));
    expect((await strict.fetch(req('/a/'))).status).toBe(404);
  });

  it('answers 414 for an over-long URL or param', async () => {
    const app = new App().get('/u/:id', (c) => c.text('ok'));
    expect((await app.fetch(req(`/u/${'a'.repeat(1025)}`))).status).toBe(414);
    expect((await app.fetch(req(`/u/a?${'q'.repeat(9000)}`))).status).toBe(414);
    expect((await app.fetch(req(`/u/${'a'.repeat(1024)}`))).status).toBe(200);
    // The limit applies to the decoded value: 1,024 escaped characters are 1,024 long.
    expect((await app.fetch(req(`/u/${'%41'.repeat(1024)}`))).status).toBe(200);
    const long = await app.fetch(req(`/u/${'%41'.repeat(1025)}`));
    expect(long.status).toBe(414);
    expect((await long.json()).detail).toBe('Path parameter "id" is too long');
  });

  it('custom notFound and onError', async () => {
    const app = new App()
      .get('/boom', () => {
        throw new Error('x');
      })
      .get('/gone', (c) => c.notFound())
      .notFound((c) => c.text('nothing here', 404))
      .onError((err, c) => c.json({ caught: (err as Error).message }, 503));
    expect(await (await app.fetch(req('/nope'))).text()).toBe('nothing here');
    const boom = await app.fetch(req('/boom'));
    expect(boom.status).toBe(503);
    expect(await boom.json()).toEqual({ caught: 'x' });
  });

  it('an onError that throws falls back to the default error response', async () => {
    const app = new App()
      .get('/', () => {
        throw new Error('first');
      })
      .onError(() => {
        throw new Error('second');
      });
    const res = await app.fetch(req('/'));
    expect(res.status).toBe(500);
    expect(await res.json()).toEqual({ type: 'about:blank', title: 'Internal Server Error', status: 500 });
  });

  it('export default { fetch: app.fetch } keeps working: fetch is bound', async () => {
    const app = new App().get('/', (c) => c.text('bound'));
    const { fetch } = { fetch: app.fetch };
    expect(await (await fetch(req('/'))).text()).toBe('bound');
  });
});

describe('context', () => {
  it('parses the query lazily and keeps every value', async () => {
    const app = new App().get('/', (c) => c.json({ one: c.req.query('a'), all: c.req.queries('a'), obj: c.req.query() }));
    expect(await (await app.fetch(req('/?a=1&a=2&b=x+y&c=%E3%83%95'))).json()).toEqual({
      one: '1',
      all: ['1', '2'],
      obj: { a: '1', b: 'x y', c: 'フ' },
    });
  });

  it('reads headers and cookies', async () => {
    const app = new App().get('/', (c) => c.json({ ua: c.req.header('user-agent'), sid: getCookie(c, 'sid'), all: getCookie(c) }));
    const res = await app.fetch(req('/', { headers: { 'user-agent': 'test', cookie: 'sid=abc%20d; theme=dark' } }));
    expect(await res.json()).toEqual({ ua: 'test', sid: 'abc d', all: { sid: 'abc d', theme: 'dark' } });
  });

  it('reads the body once and caches it across readers', async () => {
    const app = new App().post('/', async (c) => {
      const text = await c.req.text();
      const json = await c.req.json<{ a: number }>();
      const again = await c.req.json();
      return c.json({ text, a: json.a, same: json === again });
    });
    const res = await app.fetch(req('/', { method: 'POST', body: '{"a":5}' }));
    expect(await res.json()).toEqual({ text: '{"a":5}', a: 5, same: true });
  });

  it("json() first takes the runtime's reader; text() and bytes() then give the value serialised again", async () => {
    const app = new App().post('/', async (c) => {
      const json = await c.req.json<{ a: number }>();
      const text = await c.req.text();
      const bytes = await c.req.bytes();
      return c.json({ a: json.a, text, length: bytes.length });
    });
    const body = '{ "a": 5 }';
    const res = await app.fetch(req('/', { method: 'POST', body, headers: { 'content-length': String(body.length) } }));
    expect(await res.json()).toEqual({ a: 5, text: '{"a":5}', length: 7 });
    const bad = await app.fetch(req('/', { method: 'POST', body: '{', headers: { 'content-length': '1' } }));
    expect(bad.status).toBe(400);
    expect((await bad.json()).detail).toBe('Invalid JSON body');
  });

  it('reads urlencoded and multipart forms', async () => {
    const app = new App().post('/', async (c) => c.json(await c.req.form()));
    const url = await app.fetch(req('/', { method: 'POST', body: new URLSearchParams('a=1&a=2&b=3') }));
    expect(await url.json()).toEqual({ a: ['1', '2'], b: '3' });
    const fd = new FormData();
    fd.set('name', 'Ada');
    const multi = await app.fetch(req('/', { method: 'POST', body: fd }));
    expect(await multi.json()).toEqual({ name: 'Ada' });
    const wrong = await app.fetch(req('/', { method: 'POST', body: 'x', headers: { 'content-type': 'text/plain' } }));
    expect(wrong.status).toBe(415);
  });

  it('a body over the limit answers 413, per app and per route', async () => {
    const app = new App({ bodyLimit: 10 })
      .post('/small', async (c) => c.text(await c.req.text()))
      .post('/big', bodyLimit(100), async (c) => c.text(await c.req.text()));
    expect((await app.fetch(req('/small', { method: 'POST', body: 'x'.repeat(11) }))).status).toBe(413);
    expect((await app.fetch(req('/small', { method: 'POST', body: 'x'.repeat(10) }))).status).toBe(200);
    expect((await app.fetch(req('/big', { method: 'POST', body: 'x'.repeat(50) }))).status).toBe(200);
    // without a content-length: counted while streaming, the rest never read
    let pulled = 0;
    const body = new ReadableStream<Uint8Array>({
      pull(controller) {
        pulled++;
        controller.enqueue(new Uint8Array(8));
        if (pulled > 1000) controller.close();
      },
    });
    const res = await app.fetch(req('/small', { method: 'POST', body, duplex: 'half' } as RequestInit));
    expect(res.status).toBe(413);
    expect(pulled).toBeLessThan(10);
  });

  it('per-request state with set/get', async () => {
    const app = new App<{ Variables: { user: string } }>();
    app.use(async (c, next) => {
      c.set('user', 'ada');
      await next();
    });
    app.get('/', (c) => c.text(c.get('user')));
    expect(await (await app.fetch(req('/'))).text()).toBe('ada');
  });

  it('env and executionCtx reach handlers', async () => {
    const waited: Promise<unknown>[] = [];
    const app = new App<{ Bindings: { NAME: string } }>().get('/', (c) => {
      c.executionCtx.waitUntil(Promise.resolve(1));
      return c.text(c.env.NAME);
    });
    const res = await app.fetch(req('/'), { NAME: 'bound' }, { waitUntil: (p) => waited.push(p) });
    expect(await res.text()).toBe('bound');
    expect(waited).toHaveLength(1);
  });

  it('headers set on the context merge into any response', async () => {
    const app = new App()
      .get('/helper', (c) => {
        c.header('x-a', '1');
        setCookie(c, 's', 'v', { httpOnly: true });
        return c.json({});
      })
      .get('/own', (c) => {
        c.header('x-a', '1');
        c.header('content-type', 'text/ignored');
        return new Response('own', { headers: { 'content-type': 'text/own' } });
      });
    const a = await app.fetch(req('/helper'));
    expect(a.headers.get('x-a')).toBe('1');
    expect(a.headers.get('set-cookie')).toBe('s=v; Path=/; HttpOnly');
    const b = await app.fetch(req('/own'));
    expect(b.headers.get('x-a')).toBe('1');
    expect(b.headers.get('content-type')).toBe('text/own');
  });

  it('render answers without a promise once the view is loaded, and through one before', async () => {
    const files: Record<string, string> = { 'page.dve': 'Hi {{ name }}', 'other.dve': 'Yo {{ name }}' };
    const reader = { read: async (name: string) => files[name] };
    const memory = createViews({ templates: { 'page.dve': 'Hi {{ name }}' } });
    const onDisk = createViews({ reader });
    const seen: unknown[] = [];
    const app = new App({ views: onDisk })
      .get('/disk', (c) => {
        const r = c.render('page', { name: 'Ada' }, { status: 201, headers: { 'x-view': '1' } });
        seen.push(r instanceof Promise);
        return r;
      })
      .get('/bad', (c) =>
        c.render('other', {
          get name() {
            throw new Error('boom');
          },
        }),
      );
    for (let i = 0; i < 2; i++) {
      const res = await app.fetch(req('/disk'));
      expect(res.status).toBe(201);
      expect(res.headers.get('x-view')).toBe('1');
      expect(res.headers.get('content-type')).toMatch(/^text\/html/);
      expect(await res.text()).toBe('Hi Ada');
    }
    expect(seen).toEqual([true, false]);
    // A value that throws fails the render the same way loaded or not: through onError, as a 500.
    expect((await app.fetch(req('/bad'))).status).toBe(500);
    expect((await app.fetch(req('/bad'))).status).toBe(500);
    const inMemory = new App({ views: memory }).get('/', (c) => c.render('page', { name: 'Bo' }));
    expect(await (await inMemory.fetch(req('/'))).text()).toBe('Hi Bo');
    expect(memory.renderReady('page', { name: 'Cy' })).toBe('Hi Cy');
    expect(onDisk.renderReady('missing')).toBeUndefined();
  });

  it('redirect accepts same-origin paths and http(s) URLs only', async () => {
    const app = new App().get('/r', (c) => c.redirect(c.req.query('to')!, Number(c.req.query('s') ?? 302) as 302));
    const ok = await app.fetch(req('/r?to=/home'));
    expect(ok.status).toBe(302);
    expect(ok.headers.get('location')).toBe('/home');
    expect((await app.fetch(req('/r?to=https://example.com/x&s=308'))).status).toBe(308);
    for (const bad of ['//evil.com', '/\\evil.com', 'javascript:alert(1)', 'evil.com', '/a%0d%0aSet-Cookie:x']) {
      const res = await app.fetch(req(`/r?to=${encodeURIComponent(decodeURIComponent(bad))}`));
      expect(res.status, bad).toBe(500);
    }
    expect((await app.fetch(req('/r?to=/x&s=200'))).status).toBe(500);
  });

  it('streams with backpressure', async () => {
    const app = new App().get('/', (c) =>
      c.stream(async (s) => {
        for (let i = 0; i < 3; i++) await s.write(`${i};`);
      }),
    );
    expect(await (await app.fetch(req('/'))).text()).toBe('0;1;2;');
  });

  it('status() sets the status of helper responses', async () => {
    const app = new App().get('/', (c) => {
      c.status(201);
      return c.json({ ok: true });
    });
    expect((await app.fetch(req('/'))).status).toBe(201);
  });
});

describe('validation', () => {
  const Body = z.object({ name: z.string().min(1), age: z.number().int().min(0), address: z.object({ zip: z.string() }) });

  it('passes the validated value to the handler, typed', async () => {
    const app = new App().post('/', validate('json', Body), (c) => {
      const body = c.valid('json');
      return c.json({ name: body.name.toUpperCase(), age: body.age });
    });
    const res = await app.fetch(
      req('/', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ name: 'ada', age: 36, address: { zip: 'W1' } }) }),
    );
    expect(await res.json()).toEqual({ name: 'ADA', age: 36 });
  });

  it('answers 400 problem+json listing the issues by path (zod)', async () => {
    const app = new App().post('/', validate('json', Body), (c) => c.json(c.valid('json')));
    const res = await app.fetch(
      req('/', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ name: '', age: 1.5, address: {} }) }),
    );
    expect(res.status).toBe(400);
    expect(res.headers.get('content-type')).toBe('application/problem+json');
    const problem = await res.json();
    expect(problem.status).toBe(400);
    expect(problem.errors.map((e: { path: string }) => e.path).sort()).toEqual(['address.zip', 'age', 'name']);
  });

  it('works with valibot on query and params', async () => {
    const app = new App().get(
      '/items/:id',
      validate('params', v.object({ id: v.pipe(v.string(), v.regex(/^\d+$/)) })),
      validate('query', v.object({ sort: v.picklist(['asc', 'desc']) })),
      (c) => c.json({ id: c.valid('params').id, sort: c.valid('query').sort }),
    );
    expect(await (await app.fetch(req('/items/7?sort=asc'))).json()).toEqual({ id: '7', sort: 'asc' });
    const bad = await app.fetch(req('/items/x?sort=up'));
    expect(bad.status).toBe(400);
    expect((await bad.json()).errors.map((e: { path: string }) => e.path)).toEqual(['id']);
  });

  it('invalid JSON answers 400 before validation', async () => {
    const app = new App().post('/', validate('json', Body), (c) => c.json(c.valid('json')));
    const res = await app.fetch(req('/', { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{' }));
    expect(res.status).toBe(400);
    expect((await res.json()).detail).toBe('Invalid JSON body');
  });
});

describe('errors', () => {
  const boom = () =>
    new App().get('/', () => {
      throw new Error('secret detail');
    });

  it('a 5xx hides its message outside dev mode', async () => {
    const res = await boom().fetch(req('/'));
    expect(await res.text()).not.toContain('secret');
  });

  it('dev mode shows the message and stack', async () => {
    const app = new App({ dev: true }).get('/', () => {
      throw new Error('secret detail');
    });
    const body = await (await app.fetch(req('/'))).json();
    expect(body.detail).toBe('secret detail');
    expect(body.stack).toContain('Error: secret detail');
  });

  it('HttpError sets the status and shows a 4xx message', async () => {
    const app = new App().get('/', () => {
      throw new HttpError(409, 'Already exists', { headers: { 'x-why': 'dup' } });
    });
    const res = await app.fetch(req('/'));
    expect(res.status).toBe(409);
    expect(res.headers.get('x-why')).toBe('dup');
    expect(await res.json()).toEqual({ type: 'about:blank', title: 'Conflict', status: 409, detail: 'Already exists' });
  });

  it('a browser gets HTML, escaped, from the opt-in error page (rove/error-page)', async () => {
    const app = new App({ errorPage: htmlErrorPage }).get('/', () => {
      throw new HttpError(400, '<script>x</script>');
    });
    const res = await app.fetch(req('/', { headers: { accept: 'text/html,*/*;q=0.8' } }));
    expect(res.headers.get('content-type')).toBe('text/html; charset=utf-8');
    const html = await res.text();
    expect(html).toContain('&lt;script&gt;');
    expect(html).not.toContain('<script>');
  });
});

describe('the default error answer without an error page', () => {
  it('is problem+json even for a browser', async () => {
    const app = new App().get('/', () => {
      throw new HttpError(400, '<script>x</script>');
    });
    const res = await app.request('/', { headers: { accept: 'text/html,*/*;q=0.8' } });
    expect(res.headers.get('content-type')).toBe('application/problem+json');
    expect(await res.json()).toEqual({ type: 'about:blank', title: 'Bad Request', status: 400, detail: '<script>x</script>' });
  });
});
