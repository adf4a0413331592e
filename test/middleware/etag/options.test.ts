import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { App } from '../../../src/index.ts';
import { type EtagOptions, etag, RETAINED_ON_304 } from '../../../src/middleware/etag/index.ts';

function etagApp(options: EtagOptions, body = 'hello') {
  return new App()
    .use(etag(options))
    .get(
      '/',
      () => new Response(body, { headers: { 'x-request-id': 'r1', 'content-language': 'en', 'cache-control': 'max-age=60', 'content-type': 'text/plain' } }),
    );
}

async function twice(app: App) {
  const first = await app.request('/');
  const tag = first.headers.get('etag') ?? '';
  return { first, tag, again: await app.request('/', { headers: { 'if-none-match': tag } }) };
}

describe('etag() retainedHeaders', () => {
  it('keeps the RFC 9110 list by default', async () => {
    const { again } = await twice(etagApp({}));
    expect(again.status).toBe(304);
    expect(again.headers.get('cache-control')).toBe('max-age=60');
    expect(again.headers.get('x-request-id')).toBeNull();
    expect(again.headers.get('content-language')).toBeNull();
  });

  it('keeps the headers named instead, and always the ETag', async () => {
    const { tag, again } = await twice(etagApp({ retainedHeaders: [...RETAINED_ON_304, 'X-Request-Id'] }));
    expect(again.headers.get('x-request-id')).toBe('r1');
    expect(again.headers.get('cache-control')).toBe('max-age=60');
    const only = await twice(etagApp({ retainedHeaders: ['x-request-id'] }));
    expect(only.again.headers.get('cache-control')).toBeNull();
    expect(only.again.headers.get('etag')).toBe(only.tag);
    expect(tag).toMatch(/^W\//);
  });

  it('refuses a list of something other than header names', () => {
    expect(() => etag({ retainedHeaders: ['a b'] })).toThrow(TypeError);
    expect(() => etag({ retainedHeaders: 'vary' as never })).toThrow(TypeError);
  });
});

describe('etag() digest', () => {
  it('tags with the digest given, sync or async, and answers 304 to it', async () => {
    const { tag, again } = await twice(etagApp({ digest: (bytes) => `len-${bytes.byteLength}` }));
    expect(tag).toBe('W/"len-5"');
    expect(again.status).toBe(304);
    const hex = await twice(
      etagApp({
        digest: async (bytes) =>
          [...new Uint8Array(await crypto.subtle.digest('SHA-256', bytes as BufferSource))].map((b) => b.toString(16).padStart(2, '0')).join(''),
      }),
    );
    expect(hex.tag).toMatch(/^W\/"[0-9a-f]{64}"$/);
    expect(hex.again.status).toBe(304);
  });

  it('refuses a digest that gives what a tag cannot hold, with a 500', async () => {
    const res = await etagApp({ digest: () => 'a"b' }).request('/');
    expect(res.status).toBe(500);
  });

  it('a body tagged once matches its tag, and a different body does not (property)', async () => {
    await fc.assert(
      fc.asyncProperty(fc.string({ maxLength: 200 }), fc.string({ maxLength: 200 }), async (a, b) => {
        const app = new App().use(etag()).get('/', (c) => c.text(c.req.query('b') === '1' ? b : a));
        const tag = (await app.request('/')).headers.get('etag') ?? '';
        expect((await app.request('/', { headers: { 'if-none-match': tag } })).status).toBe(304);
        expect((await app.request('/?b=1', { headers: { 'if-none-match': tag } })).status).toBe(a === b ? 304 : 200);
      }),
      { numRuns: 50 },
    );
  });
});
