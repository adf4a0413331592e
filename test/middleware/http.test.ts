// The middleware catalog over real HTTP on every runtime.
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RUNTIMES, type Running, start } from '../conformance/servers.ts';
import { get } from './static/harness.ts';

const BIG = 'hello rove '.repeat(400);

describe.each(RUNTIMES)('middleware catalog on %s', (runtime) => {
  let server: Running;
  beforeAll(async () => {
    server = await start(runtime, 'test/middleware/app');
  }, 60_000);
  afterAll(async () => {
    await server?.stop();
  });

  it('sets security headers, a fresh CSP nonce that matches the page, and a request id', async () => {
    const a = await get(server.url, '/page');
    expect(a.status).toBe(200);
    expect(a.headers['x-content-type-options']).toBe('nosniff');
    expect(a.headers['x-frame-options']).toBe('DENY');
    expect(a.headers['referrer-policy']).toBeTruthy();
    expect(a.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
    const csp = String(a.headers['content-security-policy']);
    const nonce = /'nonce-([^']+)'/.exec(csp)?.[1];
    expect(nonce).toBeTruthy();
    expect(a.body.toString()).toContain(`<script nonce="${nonce}">`);
    const b = await get(server.url, '/page');
    expect(b.headers['content-security-policy']).not.toBe(csp);
    const echoed = await get(server.url, '/', { 'x-request-id': 'trace-42' });
    expect(echoed.headers['x-request-id']).toBe('trace-42');
  });

  it('compresses on node, deno, bun and deno serve; leaves it to the platform on workerd', async () => {
    const a = await get(server.url, '/page', { 'accept-encoding': 'gzip' });
    const body = a.headers['content-encoding'] === 'gzip' ? gunzipSync(a.body).toString() : a.body.toString();
    expect(body).toContain(BIG);
    if (runtime === 'workerd') {
      // The middleware stands down (navigator.userAgent is Cloudflare-Workers); the edge compresses in production.
      expect(a.headers['content-encoding']).toBeUndefined();
      return;
    }
    expect(a.headers['content-encoding']).toBe('gzip');
    expect(String(a.headers.vary)).toMatch(/accept-encoding/i);
    // Brotli where the runtime's CompressionStream has it (Deno, Bun), else gzip.
    const br = await get(server.url, '/page', { 'accept-encoding': 'br, gzip' });
    const wantBr = runtime === 'deno' || runtime === 'deno-deploy' || runtime === 'bun';
    expect(br.headers['content-encoding']).toBe(wantBr ? 'br' : 'gzip');
    expect((wantBr ? brotliDecompressSync(br.body) : gunzipSync(br.body)).toString()).toContain(BIG);
    const plain = await get(server.url, '/page');
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.body.toString()).toContain(BIG);
  });

  it('tags JSON with a weak ETag and answers a match with 304', async () => {
    const a = await get(server.url, '/api/notes');
    expect(JSON.parse(a.body.toString())).toEqual([{ id: 1, text: 'hi' }]);
    const tag = String(a.headers.etag);
    expect(tag).toMatch(/^W\/"/);
    const b = await get(server.url, '/api/notes', { 'if-none-match': tag });
    expect(b.status).toBe(304);
    expect(b.body.length).toBe(0);
  });

  it('logs one line per request', async () => {
    await get(server.url, '/');
    const a = await get(server.url, '/log');
    const lines = JSON.parse(a.body.toString()) as string[];
    expect(lines.some((l) => /^GET \/ 200 \d+\.\dms/.test(l))).toBe(true);
  });
});
