import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { setCookie } from '../../src/http/cookie.ts';
import { App, validate } from '../../src/index.ts';
import { redirectTrailingSlash } from '../../src/routing/trailing-slash.ts';

const post = (path: string, body: string, type: string) => new Request(`http://localhost${path}`, { method: 'POST', body, headers: { 'content-type': type } });

describe('parsing hostile input', () => {
  it('validate(json) answers 415 for a body that is not JSON by type, before reading it', async () => {
    const app = new App().post('/', validate('json', z.object({ a: z.number() })), (c) => c.json(c.valid('json')));
    for (const type of ['text/plain', 'application/x-www-form-urlencoded', 'multipart/form-data; boundary=x', 'application/jsonx']) {
      const res = await app.fetch(post('/', '{"a":1}', type));
      expect(res.status, type).toBe(415);
      expect(res.headers.get('content-type')).toBe('application/problem+json');
    }
    for (const type of ['application/json', 'Application/JSON; charset=utf-8', 'application/vnd.api+json']) {
      expect((await app.fetch(post('/', '{"a":1}', type))).status, type).toBe(200);
    }
  });

  it('validate(form) answers 415 for a JSON body', async () => {
    const app = new App().post('/', validate('form', z.object({ a: z.string() })), (c) => c.json(c.valid('form')));
    expect((await app.fetch(post('/', '{"a":"1"}', 'application/json'))).status).toBe(415);
    expect((await app.fetch(post('/', 'a=1', 'application/x-www-form-urlencoded'))).status).toBe(200);
  });

  it('form and query keep every key as an own property, whatever its name', async () => {
    const app = new App()
      .post('/form', async (c) => {
        const form = await c.req.form();
        return c.json({ keys: Object.keys(form), proto: Object.getPrototypeOf(form), own: Object.hasOwn(form, '__proto__'), toString: form.toString });
      })
      .get('/query', (c) => {
        const q = c.req.query();
        return c.json({ keys: Object.keys(q), constructor: q.constructor, proto: Object.getOwnPropertyDescriptor(q, '__proto__')?.value });
      });
    const form = await (await app.fetch(post('/form', '__proto__=x&toString=y&constructor=z&a=1&a=2', 'application/x-www-form-urlencoded'))).json();
    expect(form).toEqual({ keys: ['__proto__', 'toString', 'constructor', 'a'], proto: null, own: true, toString: 'y' });
    const query = await (await app.fetch(new Request('http://localhost/query?constructor=1&toString=2&__proto__=3&hasOwnProperty=4'))).json();
    expect(query).toEqual({ keys: ['constructor', 'toString', '__proto__', 'hasOwnProperty'], constructor: '1', proto: '3' });
  });

  it('setCookie refuses a path or domain that would inject attributes or headers', async () => {
    const app = new App().get('/', (c) => {
      setCookie(c, 'sid', 'v', { path: c.req.query('path') ?? '/', domain: c.req.query('domain') });
      return c.text('ok');
    });
    for (const q of ['path=/;%20Domain=evil.example', 'domain=a.example;%20Secure', 'path=/%0D%0ASet-Cookie:%20x=1']) {
      const res = await app.fetch(new Request(`http://localhost/?${q}`));
      expect(res.status, q).toBe(500);
      expect(res.headers.get('set-cookie')).toBeNull();
    }
    const ok = await app.fetch(new Request('http://localhost/?path=/app&domain=example.com'));
    expect(ok.headers.get('set-cookie')).toBe('sid=v; Domain=example.com; Path=/app');
  });

  it('the trailing-slash redirect passes the same safety check as c.redirect', async () => {
    const app = new App({ trailingSlash: redirectTrailingSlash }).get('/a/', (c) => c.text('a'));
    const res = await app.fetch(new Request('http://localhost/a?x=1'));
    expect(res.status).toBe(301);
    expect(res.headers.get('location')).toBe('/a/?x=1');
  });

  it('c.json returns a real Response whose clone can be read', async () => {
    const app = new App().get('/', async (c) => {
      const r = c.json({ a: 1 });
      return c.json({ real: r instanceof Response, text: await r.clone().text(), type: r.headers.get('content-type') });
    });
    expect(await (await app.fetch(new Request('http://localhost/'))).json()).toEqual({ real: true, text: '{"a":1}', type: 'application/json' });
  });

  it('a CR/LF header value from the query ends in a 500 through onError, not a crash', async () => {
    const seen: unknown[] = [];
    const app = new App()
      .get('/', (c) => {
        c.header('x-echo', c.req.query('v'));
        return c.text('ok');
      })
      .onError((error, c) => {
        seen.push(error);
        return c.json({ handled: true }, 500);
      });
    const res = await app.fetch(new Request('http://localhost/?v=a%0D%0ASet-Cookie:%20x=1'));
    expect(res.status).toBe(500);
    expect(await res.json()).toEqual({ handled: true });
    expect(seen).toHaveLength(1);
  });
});

describe('headers every runtime can send', () => {
  it('c.header and helper headers refuse control characters, which node:http refuses and Deno 2.9 panics on', async () => {
    const app = new App()
      .get('/set', (c) => {
        c.header('x-echo', c.req.query('v'));
        return c.text('ok');
      })
      .get('/extra', (c) => c.json({}, 200, { 'x-echo': c.req.query('v') ?? '' }));
    for (const v of ['a%01b', 'a%0Db', 'a%7Fb', 'a%00b']) {
      expect((await app.fetch(new Request(`http://localhost/set?v=${v}`))).status, v).toBe(500);
      expect((await app.fetch(new Request(`http://localhost/extra?v=${v}`))).status, v).toBe(500);
    }
    expect((await app.fetch(new Request('http://localhost/set?v=tab%09and%C3%A9'))).status).toBe(200);
  });
});

describe('pending headers on a response the handler built', () => {
  it('a single cookie set through setCookie is added to a Set-Cookie the response already has', async () => {
    const app = new App().get('/', (c) => {
      setCookie(c, 'a', '1');
      return new Response('x', { headers: { 'set-cookie': 'b=2' } });
    });
    const res = await app.fetch(new Request('http://localhost/'));
    expect(res.headers.getSetCookie()).toEqual(['b=2', 'a=1; Path=/']);
  });
});
