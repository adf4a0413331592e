// Defects found by restating a peer framework's middleware tests against Rove, each pinned here
// in process; test/adapters/trace.test.ts checks TRACE over real HTTP on every runtime.
import { describe, expect, it } from 'vitest';
import { parseCookies, serializeCookie } from '../../src/cookies.ts';
import { App } from '../../src/index.ts';
import { requestId } from '../../src/middleware/request-id/index.ts';

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
