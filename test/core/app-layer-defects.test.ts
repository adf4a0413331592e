// Defects found by restating a peer framework's middleware tests against Rove, each pinned here
// in process; test/adapters/trace.test.ts checks TRACE over real HTTP on every runtime.
import { describe, expect, it } from 'vitest';
import { parseCookies, serializeCookie } from '../../src/http/cookies.ts';
import { App } from '../../src/index.ts';
import { jwt } from '../../src/middleware/auth/index.ts';
import { csrf } from '../../src/middleware/csrf/index.ts';
import { requestId } from '../../src/middleware/request-id/index.ts';
import { session } from '../../src/middleware/session/index.ts';

describe('cookies', () => {
  it('trims only SP and HTAB around names and values: a name padded with U+00A0 does not shadow the real one', () => {
    const parsed = parseCookies('\u00a0sid=evil; sid=good; \tx = 1 ');
    expect(parsed.sid).toBe('good');
    expect(parsed['\u00a0sid']).toBe('evil');
    expect(parsed.x).toBe('1');
  });

  it('refuses a sameSite that is not Strict, Lax or None', () => {
    expect(() => serializeCookie('a', 'b', { sameSite: 'Strict; Domain=evil.example' as never })).toThrow(TypeError);
    expect(serializeCookie('a', 'b', { sameSite: 'Lax' })).toContain('; SameSite=Lax');
  });
});

describe('c.header(name, value, { append: true }) before next()', () => {
  it('keeps a single appended value beside the value the response sets itself', async () => {
    const app = new App();
    app.use((c, next) => {
      c.header('vary', 'Origin', { append: true });
      return next();
    });
    app.get('/', () => new Response('x', { headers: { vary: 'Accept-Encoding' } }));
    const res = await app.request('/');
    expect(res.headers.get('vary')).toBe('Accept-Encoding, Origin');
  });
});

describe('TRACE', () => {
  it('answers 405 with Allow, even when middleware reads c.req.raw', async () => {
    const app = new App();
    app.use(requestId());
    app.use((c, next) => {
      void c.req.raw;
      return next();
    });
    app.get('/', (c) => c.text('ok'));
    // A Request cannot be built with TRACE: pass what an adapter passes, a request-like object.
    const trace = { ...new Request('http://localhost/'), method: 'TRACE', url: 'http://localhost/', headers: new Headers(), body: null } as unknown as Request;
    const res = await app.fetch(trace);
    expect(res.status).toBe(405);
    expect(res.headers.get('allow')).toBe('GET, HEAD, OPTIONS');
  });

  it('cannot be registered as a route', () => {
    expect(() => new App().method('TRACE', '/', (c) => c.text('echo'))).toThrow(/not supported/);
  });
});

describe('body limit', () => {
  it('counts the bytes when Transfer-Encoding is present, whatever Content-Length says', async () => {
    const app = new App({ bodyLimit: 8 });
    app.post('/', async (c) => c.text(await c.req.text()));
    const big = new TextEncoder().encode('x'.repeat(64));
    const body = new ReadableStream<Uint8Array>({
      start(controller) {
        controller.enqueue(big);
        controller.close();
      },
    });
    const req = new Request('http://localhost/', {
      method: 'POST',
      body,
      headers: { 'content-length': '4', 'transfer-encoding': 'chunked' },
      duplex: 'half',
    } as RequestInit);
    expect((await app.fetch(req)).status).toBe(413);
  });
});

describe('requestId()', () => {
  it('refuses an empty or invalid header name when registered, not with a 500 per request', () => {
    expect(() => requestId({ header: '' })).toThrow(TypeError);
    expect(() => requestId({ header: 'x id' })).toThrow(TypeError);
  });

  it('hands the generator the context', async () => {
    const app = new App();
    app.use(requestId({ generate: (c) => `gen-${c.req.method.toLowerCase()}` }));
    app.get('/', (c) => c.text(String(c.get('requestId'))));
    expect(await (await app.request('/')).text()).toBe('gen-get');
  });
});

describe('csrf() beside a token-authenticated JSON API', () => {
  const KEY = 'csrf-json-api-secret-0123456789abcdef';
  function apiApp() {
    const app = new App();
    app.use(session({ keys: [KEY] }));
    app.use(csrf());
    app.use('/api', jwt({ secret: 'a-jwt-secret-that-is-long-enough-0123456789' }));
    app.delete('/api/notes/1', (c) => c.text('deleted'));
    app.post('/form', (c) => c.text('posted'));
    return app;
  }

  it('lets an unauthenticated request without cookies reach the auth middleware: 401, not a CSRF 403', async () => {
    const res = await apiApp().request('/api/notes/1', { method: 'DELETE' });
    expect(res.status).toBe(401);
  });

  it('still refuses a cookie-carrying request without a token, with a hint that fits a JSON client', async () => {
    const res = await apiApp().request('/form', { method: 'POST', headers: { cookie: 'sid=x', 'content-type': 'application/json' }, body: '{}' });
    expect(res.status).toBe(403);
    const detail = ((await res.json()) as { detail: string }).detail;
    expect(detail).toMatch(/header/);
    expect(detail).not.toMatch(/form field/);
  });

  it('never treats an origin predicate that answers a promise or a string as allowing', async () => {
    for (const answer of [Promise.resolve('yes'), 'yes', 1]) {
      const app = new App();
      app.use(session({ keys: [KEY] }));
      app.use(csrf({ origin: (() => answer) as never }));
      app.post('/', (c) => c.text('ok'));
      const res = await app.request('/', { method: 'POST', headers: { origin: 'https://evil.example', cookie: 'sid=x' } });
      expect(res.status).toBe(403);
    }
  });
});

describe('etag() and compress() with headers set through c.header() and cookies', () => {
  it('sends a cookie once, and a 304 only what a 304 may carry', async () => {
    const { etag } = await import('../../src/middleware/etag/index.ts');
    const { compress } = await import('../../src/middleware/compress/index.ts');
    const { setCookie } = await import('../../src/http/cookie.ts');
    for (const mw of [etag(), compress({ threshold: 0 })]) {
      const app = new App();
      app.use(mw);
      app.get('/', (c) => {
        c.header('content-language', 'en');
        c.header('x-custom', '1');
        setCookie(c, 'a', '1');
        return c.text('x'.repeat(2048));
      });
      const res = await app.request('/', { headers: { 'accept-encoding': 'gzip' } });
      expect(res.headers.getSetCookie()).toHaveLength(1);
      const tag = res.headers.get('etag');
      if (tag === null) continue;
      const again = await app.request('/', { headers: { 'if-none-match': tag } });
      expect(again.status).toBe(304);
      expect(again.headers.get('content-language')).toBeNull();
      expect(again.headers.get('x-custom')).toBeNull();
      expect(again.headers.get('etag')).toBe(tag);
    }
  });
});

describe('Accept-Encoding q-values', () => {
  it('picks the encoding the client weighs highest, the server order breaking ties', async () => {
    const { pickEncoding } = await import('../../src/middleware/static/encoding.ts');
    const offered = ['br', 'gzip', 'deflate'] as const;
    expect(pickEncoding('gzip;q=0.5, deflate;q=0.9', offered)).toBe('deflate');
    expect(pickEncoding('gzip, deflate, br', offered)).toBe('br');
    expect(pickEncoding('*;q=0.1, gzip;q=0.2', offered)).toBe('gzip');
    expect(pickEncoding('gzip;q=0, deflate;q=0', offered)).toBeUndefined();
  });
});
