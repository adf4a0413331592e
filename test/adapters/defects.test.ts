// Already-fixed app-layer defects, pinned over real HTTP on every runtime (the fixture's routes
// under /defects/…, test/adapters/fixtures/defects.ts); test/core/app-layer-defects.test.ts pins
// them in process.
import { inflateSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rawRequest } from './raw-http.ts';
import { ALL_RUNTIMES, serveFixture } from './serve-fixture.ts';

const RUNTIMES = ALL_RUNTIMES;

describe.each(RUNTIMES)('fixed defects over HTTP on %s', (runtime) => {
  let port: number;
  let stop: () => Promise<void>;
  // workerd's peer is the CF-Connecting-IP the edge writes; locally the test plays the edge.
  const peer: Record<string, string> = runtime === 'workerd' ? { 'cf-connecting-ip': '127.0.0.1' } : {};
  const url = (path: string) => `http://127.0.0.1:${port}${path}`;
  beforeAll(async () => {
    ({ port, stop } = await serveFixture(runtime));
  }, 60_000);
  afterAll(() => stop?.());

  it('behind trustProxy(1), c.req.ip comes from X-Forwarded-For, not from a Forwarded header the client sent', async () => {
    const res = await fetch(url('/defects/proxy/ip'), { headers: { ...peer, forwarded: 'for=6.6.6.6', 'x-forwarded-for': '203.0.113.9' } });
    expect(await res.json()).toEqual({ ip: '203.0.113.9' });
  });

  it('X-Forwarded-Proto: https from the trusted peer makes the session cookie Secure and sends HSTS', async () => {
    const res = await fetch(url('/defects/proxy/session'), { headers: { ...peer, 'x-forwarded-proto': 'https' } });
    expect(await res.json()).toEqual({ protocol: 'https' });
    expect(res.headers.getSetCookie().join('\n')).toMatch(/; Secure/);
    expect(res.headers.get('strict-transport-security')).toMatch(/max-age=/);
    const plain = await fetch(url('/defects/proxy/session'), { headers: peer });
    expect(plain.headers.getSetCookie().join('\n')).not.toMatch(/; Secure/);
    expect(plain.headers.get('strict-transport-security')).toBeNull();
  });

  it('a cookie named "\\u00a0sid" does not shadow "sid"', async () => {
    const res = await rawRequest(port, 'GET /defects/cookie HTTP/1.1\r\nHost: h\r\nCookie: \u00a0sid=evil; sid=good\r\nConnection: close\r\n\r\n');
    expect(res.status).toBe(200);
    expect(JSON.parse(res.body)).toEqual({ sid: 'good' });
  });

  it('Bearer with a space inside is 400 invalid_request; a wrong token is 401 invalid_token', async () => {
    const malformed = await fetch(url('/defects/bearer'), { headers: { authorization: 'Bearer a b' } });
    expect(malformed.status).toBe(400);
    expect(malformed.headers.get('www-authenticate')).toMatch(/error="invalid_request"/);
    const wrong = await fetch(url('/defects/bearer'), { headers: { authorization: 'Bearer abc' } });
    expect(wrong.status).toBe(401);
    expect(wrong.headers.get('www-authenticate')).toMatch(/error="invalid_token"/);
    const right = await fetch(url('/defects/bearer'), { headers: { authorization: 'Bearer right-token' } });
    expect(await right.text()).toBe('in');
  });

  it('an etag 304 carries no Content-Language or X-Custom, and the cookie once', async () => {
    const first = await fetch(url('/defects/etag'));
    expect(first.headers.getSetCookie()).toEqual(['a=1; Path=/']);
    const tag = first.headers.get('etag');
    expect(tag).toMatch(/^W\//);
    const again = await rawRequest(port, `GET /defects/etag HTTP/1.1\r\nHost: h\r\nIf-None-Match: ${tag}\r\nConnection: close\r\n\r\n`, '', 2000);
    expect(again.status).toBe(304);
    expect(again.headers['content-language']).toBeUndefined();
    expect(again.headers['x-custom']).toBeUndefined();
    expect(again.headers.etag).toBe(tag);
    expect(again.text.match(/^set-cookie:/gim)).toHaveLength(1);
  });

  it('compress picks deflate for "gzip;q=0.5, deflate;q=0.9"', async () => {
    const res = await rawRequest(port, 'GET /defects/compress HTTP/1.1\r\nHost: h\r\nAccept-Encoding: gzip;q=0.5, deflate;q=0.9\r\nConnection: close\r\n\r\n');
    expect(res.status).toBe(200);
    expect(res.headers['content-encoding']).toBe('deflate');
    expect(inflateSync(Buffer.from(res.body, 'latin1')).toString()).toBe('compress me '.repeat(200));
  });

  it('a value appended with c.header before next() is kept beside the response’s own', async () => {
    const res = await fetch(url('/defects/append'));
    expect(res.headers.get('vary')).toBe('Accept-Encoding, Origin');
  });

  it('a header a middleware appended, and its cookie, add up with the same header given to every helper', async () => {
    for (const helper of ['text', 'json', 'html', 'body', 'stream', 'created']) {
      const res = await fetch(url(`/defects/helper-append/${helper}`), { headers: peer });
      expect(res.status, helper).toBe(helper === 'created' ? 201 : 200);
      expect(res.headers.get('vary'), helper).toBe('Accept-Encoding, Cookie');
      expect(
        res.headers.getSetCookie().map((line) => line.split(';')[0]),
        helper,
      ).toEqual(['a=1', 'b=2']);
    }
  });

  it("cors()'s preflight keeps a Vary that an earlier middleware appended", async () => {
    const res = await fetch(url('/defects/helper-append/cors'), {
      method: 'OPTIONS',
      headers: { ...peer, origin: 'https://app.example', 'access-control-request-method': 'POST' },
    });
    expect(res.status).toBe(204);
    expect(res.headers.get('vary')).toMatch(/^Accept-Encoding, Origin/);
    expect(res.headers.getSetCookie().map((line) => line.split(';')[0])).toEqual(['a=1']);
  });

  it('a chunked body behind a small Content-Length is refused (413, or the runtime’s own 400), never read past the limit', async () => {
    const chunk = 'x'.repeat(64);
    const head = `POST /defects/limit HTTP/1.1\r\nHost: h\r\nContent-Length: 4\r\nTransfer-Encoding: chunked\r\nConnection: close\r\n${runtime === 'workerd' ? 'CF-Connecting-IP: 127.0.0.1\r\n' : ''}\r\n`;
    const res = await rawRequest(port, head, `${chunk.length.toString(16)}\r\n${chunk}\r\n0\r\n\r\n`);
    expect([400, 413]).toContain(res.status);
    expect(res.body).not.toContain(chunk);
    expect((await fetch(url('/defects/append'))).status).toBe(200);
  });

  it('csrf() beside a bearer API: an unauthenticated DELETE without cookies gets the API’s 401, not a CSRF 403', async () => {
    expect((await fetch(url('/defects/csrf/api/notes/1'), { method: 'DELETE', headers: peer })).status).toBe(401);
    const withToken = await fetch(url('/defects/csrf/api/notes/1'), { method: 'DELETE', headers: { ...peer, authorization: 'Bearer right-token' } });
    expect(withToken.status).toBe(200);
    // A cookie-carrying JSON post without a token is refused, with a hint for a JSON client.
    const refused = await fetch(url('/defects/csrf/form'), {
      method: 'POST',
      headers: { ...peer, cookie: 'sid=x', 'content-type': 'application/json' },
      body: '{}',
    });
    expect(refused.status).toBe(403);
    expect(((await refused.json()) as { detail: string }).detail).toMatch(/x-csrf-token header/);
  });
});
