// etag, compress, secure-headers, request-id and logger, in process (the app's
// own handle(), no adapter). test/middleware/http.test.ts runs them over HTTP.
import { gunzipSync, inflateSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { App } from '../../src/index.ts';
import { compress } from '../../src/middleware/compress/index.ts';
import { etag, weakTag } from '../../src/middleware/etag/index.ts';
import { formatLine, logger } from '../../src/middleware/logger/index.ts';
import { requestId } from '../../src/middleware/request-id/index.ts';
import { cspNonce, NONCE, secureHeaders } from '../../src/middleware/secure-headers/index.ts';

const call = async (app: App<any>, path: string, init: RequestInit = {}, env: Record<string, unknown> = {}) =>
  await app.handle(new Request(`http://localhost${path}`, init), env, undefined);

const BIG = 'hello rove '.repeat(400);

describe('etag()', () => {
  const app = new App();
  app.use(etag());
  app.get('/json', (c) => c.json({ n: 1 }));
  app.get('/text', (c) => c.text(BIG));
  app.get('/own', (c) => c.text('x', 200, { etag: '"mine"' }));
  app.get('/stream', (c) =>
    c.stream(async (out) => {
      await new Promise((r) => setTimeout(r, 20));
      await out.write('late');
    }),
  );
  app.get('/missing', (c) => c.text('no', 404));
  app.post('/json', (c) => c.json({ n: 2 }));

  it('tags known bodies and answers a match with 304', async () => {
    const a = await call(app, '/json');
    const tag = a.headers.get('etag')!;
    expect(tag).toMatch(/^W\/"[0-9a-f]+-[\w-]{22}"$/);
    expect(await a.json()).toEqual({ n: 1 });
    expect(tag).toBe(await weakTag(new TextEncoder().encode('{"n":1}')));
    const b = await call(app, '/json', { headers: { 'if-none-match': tag } });
    expect(b.status).toBe(304);
    expect(b.headers.get('etag')).toBe(tag);
    expect(b.headers.get('content-type')).toBeNull();
    expect(await b.text()).toBe('');
    expect((await call(app, '/json', { headers: { 'if-none-match': '"other"' } })).status).toBe(200);
    expect((await (await call(app, '/text')).text()).length).toBe(BIG.length);
  });

  it('keeps a handler ETag, skips streams, errors and unsafe methods', async () => {
    expect((await call(app, '/own')).headers.get('etag')).toBe('"mine"');
    expect((await call(app, '/own', { headers: { 'if-none-match': '"mine"' } })).status).toBe(304);
    const s = await call(app, '/stream');
    expect(s.headers.get('etag')).toBeNull();
    expect(await s.text()).toBe('late');
    expect((await call(app, '/missing')).headers.get('etag')).toBeNull();
    expect((await call(app, '/json', { method: 'POST' })).headers.get('etag')).toBeNull();
  });

  it('does not hash bodies over maxSize', async () => {
    const small = new App();
    small.use(etag({ maxSize: 100 }));
    small.get('/', (c) => c.text(BIG));
    const a = await call(small, '/');
    expect(a.headers.get('etag')).toBeNull();
    expect(await a.text()).toBe(BIG);
  });
});

describe('compress()', () => {
  const app = new App();
  app.use(compress());
  app.get('/big', (c) => c.text(BIG));
  app.get('/small', (c) => c.text('tiny'));
  app.get('/png', (c) => c.body(new Uint8Array(5000), 200, { 'content-type': 'image/png' }));
  app.get('/encoded', (c) => c.body(new Uint8Array(5000), 200, { 'content-type': 'text/plain', 'content-encoding': 'gzip' }));
  app.get('/sse', (c) => c.body(BIG, 200, { 'content-type': 'text/event-stream' }));
  app.get('/stream', (c) =>
    c.stream(async (out) => {
      for (let i = 0; i < 5; i++) {
        await new Promise((r) => setTimeout(r, 5));
        await out.write(BIG);
      }
    }),
  );

  it('gzips and deflates compressible bodies above the threshold, with Vary', async () => {
    const a = await call(app, '/big', { headers: { 'accept-encoding': 'gzip' } });
    expect(a.headers.get('content-encoding')).toBe('gzip');
    expect(a.headers.get('vary')).toMatch(/Accept-Encoding/);
    expect(a.headers.get('content-length')).toBeNull();
    expect(gunzipSync(Buffer.from(await a.arrayBuffer())).toString()).toBe(BIG);
    const d = await call(app, '/big', { headers: { 'accept-encoding': 'deflate' } });
    expect(d.headers.get('content-encoding')).toBe('deflate');
    expect(inflateSync(Buffer.from(await d.arrayBuffer())).toString()).toBe(BIG);
    const s = await call(app, '/stream', { headers: { 'accept-encoding': 'gzip' } });
    expect(s.headers.get('content-encoding')).toBe('gzip');
    expect(gunzipSync(Buffer.from(await s.arrayBuffer())).toString()).toBe(BIG.repeat(5));
  });

  it('leaves small, binary, already encoded and event-stream bodies alone', async () => {
    const h = { headers: { 'accept-encoding': 'gzip, deflate' } };
    const small = await call(app, '/small', h);
    expect(small.headers.get('content-encoding')).toBeNull();
    expect(small.headers.get('vary')).toMatch(/Accept-Encoding/);
    expect(await small.text()).toBe('tiny');
    expect((await call(app, '/png', h)).headers.get('content-encoding')).toBeNull();
    const enc = await call(app, '/encoded', h);
    expect(enc.headers.get('content-encoding')).toBe('gzip');
    expect((await enc.arrayBuffer()).byteLength).toBe(5000);
    expect((await call(app, '/sse', h)).headers.get('content-encoding')).toBeNull();
    expect((await call(app, '/big')).headers.get('content-encoding')).toBeNull();
    expect((await call(app, '/big', { headers: { 'accept-encoding': 'identity' } })).headers.get('content-encoding')).toBeNull();
  });

  it('stays off where the platform compresses, unless enabled', async () => {
    const deploy = await call(app, '/big', { headers: { 'accept-encoding': 'gzip' } }, { DENO_DEPLOYMENT_ID: 'x' });
    expect(deploy.headers.get('content-encoding')).toBeNull();
    const forced = new App();
    forced.use(compress({ enabled: true, threshold: 10 }));
    forced.get('/', (c) => c.text('0123456789abcdef'));
    const f = await call(forced, '/', { headers: { 'accept-encoding': 'gzip' } }, { DENO_DEPLOYMENT_ID: 'x' });
    expect(f.headers.get('content-encoding')).toBe('gzip');
  });
});

describe('secureHeaders() and cspNonce()', () => {
  const app = new App();
  app.use(secureHeaders({ contentSecurityPolicy: { defaultSrc: ["'self'"], scriptSrc: ["'self'", NONCE], frameAncestors: ["'none'"] } }));
  app.get('/', (c) => c.html(`<script nonce="${cspNonce(c)}">1</script><i>${c.get('cspNonce')}</i>`));
  app.get('/own', (c) => c.text('x', 200, { 'x-frame-options': 'SAMEORIGIN' }));
  app.get('/boom', () => {
    throw new Error('x');
  });

  it('sets the defaults and a CSP whose nonce changes per response and matches the page', async () => {
    const a = await call(app, '/');
    expect(a.headers.get('x-content-type-options')).toBe('nosniff');
    expect(a.headers.get('referrer-policy')).toBe('strict-origin-when-cross-origin');
    expect(a.headers.get('x-frame-options')).toBe('DENY');
    expect(a.headers.get('cross-origin-opener-policy')).toBe('same-origin');
    expect(a.headers.get('strict-transport-security')).toBeNull(); // http
    const csp = a.headers.get('content-security-policy')!;
    const nonce = /'nonce-([A-Za-z0-9+/=]+)'/.exec(csp)![1];
    expect(csp).toBe(`default-src 'self'; script-src 'self' 'nonce-${nonce}'; frame-ancestors 'none'`);
    const html = await a.text();
    expect(html).toBe(`<script nonce="${nonce}">1</script><i>${nonce}</i>`);
    const b = await call(app, '/');
    expect(b.headers.get('content-security-policy')).not.toBe(csp);
    expect((await call(app, '/boom')).headers.get('x-content-type-options')).toBe('nosniff');
    expect((await call(app, '/own')).headers.get('x-frame-options')).toBe('SAMEORIGIN');
  });

  it('sends HSTS on https only, and refuses bad policies', async () => {
    const a = await app.handle(new Request('https://example.com/'), {}, undefined);
    expect(a.headers.get('strict-transport-security')).toBe('max-age=31536000; includeSubDomains');
    expect(() => secureHeaders({ contentSecurityPolicy: { scriptSrc: ["'self'; report-uri x"] } })).toThrow(TypeError);
    expect(() => secureHeaders({ contentSecurityPolicy: { 'script src': ["'self'"] } })).toThrow(TypeError);
    expect(() => secureHeaders({ contentSecurityPolicy: "default-src 'self'\r\nx: y" })).toThrow(TypeError);
  });
});

describe('requestId()', () => {
  const app = new App();
  app.use(requestId());
  app.get('/', (c) => c.text(String(c.get('requestId'))));

  it('echoes a well-formed id and replaces anything else', async () => {
    const a = await call(app, '/', { headers: { 'x-request-id': 'abc-123_x.y' } });
    expect(a.headers.get('x-request-id')).toBe('abc-123_x.y');
    expect(await a.text()).toBe('abc-123_x.y');
    for (const bad of ['a b', 'x'.repeat(200), '<script>', 'a\tb', '', 'é']) {
      const r = await call(app, '/', { headers: { 'x-request-id': bad } });
      expect(r.headers.get('x-request-id'), bad).toMatch(/^[0-9a-f-]{36}$/);
    }
    const fresh = await call(app, '/');
    expect(fresh.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);
    expect(await fresh.text()).toBe(fresh.headers.get('x-request-id'));
  });
});

describe('logger()', () => {
  it('writes one line per request from the event bus, and stops', async () => {
    const app = new App();
    const lines: string[] = [];
    const stop = logger(app, { write: (l) => lines.push(l) });
    app.get('/x', (c) => c.text('hello'));
    await call(app, '/x');
    await call(app, '/nope%0d%0aforged');
    await new Promise((r) => setTimeout(r, 10));
    expect(lines[0]).toMatch(/^GET \/x 200 \d+\.\dms (5b|-)$/); // the size when the response names it
    expect(lines[1]).toMatch(/^GET \/nope%0d%0aforged 404 /);
    stop();
    await call(app, '/x');
    await new Promise((r) => setTimeout(r, 10));
    expect(lines.length).toBe(2);
    expect(formatLine({ method: 'GET', path: '/a\nb', status: 200, durationMs: 1, responseSize: undefined } as never)).toBe('GET /a\\x0ab 200 1.0ms -');
  });
});
