// Responses built from header records: the same headers, set-cookie values and content-type
// defaults as a header init gave, in process (test/response/http.test.ts runs the app over HTTP).
import { describe, expect, it } from 'vitest';
import { App } from '../../src/core/app.ts';
import { HttpError } from '../../src/core/errors.ts';
import { errorResponse } from '../../src/core/problem.ts';
import { appendHeaders, buildResponse } from '../../src/core/response.ts';
import { setCookie } from '../../src/http/cookie.ts';
import { compileCsp, NONCE, secureHeaders } from '../../src/middleware/secure-headers/index.ts';

describe('buildResponse', () => {
  it('gives every header, one set-cookie per value, and the status', async () => {
    const res = buildResponse('{"a":1}', 201, { 'content-type': 'application/json', 'x-a': '1', 'set-cookie': ['a=1', 'b=2'] });
    expect(res.status).toBe(201);
    expect(res.headers.get('content-type')).toBe('application/json');
    expect(res.headers.get('x-a')).toBe('1');
    expect(res.headers.getSetCookie()).toEqual(['a=1', 'b=2']);
    expect(await res.text()).toBe('{"a":1}');
  });

  it('keeps the runtime default type on a string body unless the record names one, as an init does', () => {
    const bare = buildResponse('x', 200, { 'x-a': '1' });
    const init = new Response('x', { headers: { 'x-a': '1' } });
    expect(bare.headers.get('content-type')).toBe(init.headers.get('content-type'));
    expect(buildResponse('x', 200, { 'content-type': 'text/css' }).headers.get('content-type')).toBe('text/css');
    expect(buildResponse(new Uint8Array([1]), 200, {}).headers.get('content-type')).toBeNull();
    expect(buildResponse(null, 302, { location: '/a' }).headers.get('location')).toBe('/a');
  });

  it('refuses what the runtime refuses in an init', () => {
    expect(() => buildResponse('x', 200, { 'bad name': '1' })).toThrow(TypeError);
    expect(() => buildResponse('x', 204, {})).toThrow(TypeError);
  });
});

describe('appendHeaders', () => {
  it('copies a record, pairs or a Headers as new Headers(init) would, cookies apart', () => {
    for (const init of [
      { 'x-a': '1', 'set-cookie': 'a=1' },
      [
        ['x-a', '1'],
        ['set-cookie', 'a=1'],
        ['set-cookie', 'b=2'],
      ] as [string, string][],
      new Headers([
        ['x-a', '1'],
        ['set-cookie', 'a=1'],
        ['set-cookie', 'b=2'],
      ]),
    ]) {
      const out = new Headers();
      appendHeaders(out, init);
      const ref = new Headers(init);
      expect([...out]).toEqual([...ref]);
      expect(out.getSetCookie()).toEqual(ref.getSetCookie());
    }
    expect(() => appendHeaders(new Headers(), [['x-a']] as unknown as [string, string][])).toThrow(TypeError);
  });
});

describe('error responses', () => {
  it('carry the error headers, with the problem type winning', async () => {
    const err = new HttpError(401, 'no', {
      headers: [
        ['www-authenticate', 'Basic realm="x"'],
        ['content-type', 'text/plain'],
        ['set-cookie', 'a=; Max-Age=0'],
        ['set-cookie', 'b=; Max-Age=0'],
      ],
    });
    const res = errorResponse(err);
    expect(res.status).toBe(401);
    expect(res.headers.get('content-type')).toBe('application/problem+json');
    expect(res.headers.get('www-authenticate')).toBe('Basic realm="x"');
    expect(res.headers.getSetCookie()).toEqual(['a=; Max-Age=0', 'b=; Max-Age=0']);
    expect(await res.json()).toMatchObject({ status: 401, detail: 'no' });
  });
});

describe('context helpers with headers', () => {
  const app = new App();
  app.get('/json', (c) => {
    c.header('x-a', '1');
    setCookie(c, 'a', '1');
    setCookie(c, 'b', '2');
    return c.json({ ok: true }, 201);
  });
  app.get('/text', (c) => c.text('hi', 200, { 'x-b': '2' }));
  app.get('/stream', (c) => {
    c.header('x-c', '3');
    return c.stream(async (w) => {
      await w.write('a');
      await w.write('b');
    });
  });
  app.get('/bytes', (c) => c.body(new Uint8Array([104, 105]), 200, { 'x-d': '4' }));

  it('json: its type, own headers and both cookies', async () => {
    const res = await app.request('/json');
    expect(res.status).toBe(201);
    expect(res.headers.get('content-type')).toBe('application/json');
    expect(res.headers.get('x-a')).toBe('1');
    expect(res.headers.getSetCookie()).toEqual(['a=1; Path=/', 'b=2; Path=/']);
  });

  it('text, stream and bytes keep their content types', async () => {
    const text = await app.request('/text');
    expect(text.headers.get('content-type')?.toLowerCase()).toBe('text/plain;charset=utf-8');
    expect(text.headers.get('x-b')).toBe('2');
    const stream = await app.request('/stream');
    expect(stream.headers.get('content-type')?.toLowerCase()).toBe('text/plain;charset=utf-8');
    expect(stream.headers.get('x-c')).toBe('3');
    expect(await stream.text()).toBe('ab');
    const bytes = await app.request('/bytes');
    expect(bytes.headers.get('content-type')).toBeNull();
    expect(await bytes.text()).toBe('hi');
  });

  it('HEAD gets the GET headers and no body', async () => {
    const res = await app.request('/json', { method: 'HEAD' });
    expect(res.headers.get('content-type')).toBe('application/json');
    expect(res.headers.getSetCookie()).toHaveLength(2);
    expect(res.body).toBeNull();
  });
});

describe('secureHeaders() checks its headers once, when it is made', () => {
  it('refuses a header it could not send', () => {
    expect(() => secureHeaders({ headers: { 'x-a': 'a\u0001b' } })).toThrow(TypeError);
    expect(() => secureHeaders({ headers: { 'bad name': 'x' } })).toThrow(TypeError);
    expect(() => secureHeaders({ referrerPolicy: 'no-referrer\n' })).toThrow(TypeError);
    expect(() => secureHeaders({ strictTransportSecurity: 'max-age=1\r' })).toThrow(TypeError);
    expect(() => secureHeaders({ contentSecurityPolicy: { scriptSrc: ['https://\u20ac.example'] } })).toThrow(TypeError);
  });
});

describe('compileCsp', () => {
  it('puts the nonce in every slot and leaves a policy without one as is', () => {
    const csp = compileCsp({ defaultSrc: ["'self'"], scriptSrc: ["'self'", NONCE], styleSrc: [NONCE], upgradeInsecureRequests: true });
    expect(csp.usesNonce).toBe(true);
    expect(csp.build('abc')).toBe("default-src 'self'; script-src 'self' 'nonce-abc'; style-src 'nonce-abc'; upgrade-insecure-requests");
    expect(compileCsp({ defaultSrc: ["'none'"] }).build(undefined)).toBe("default-src 'none'");
  });
});
