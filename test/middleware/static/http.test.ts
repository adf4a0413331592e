// rove/static over real HTTP on every runtime: the same app, the same fixture.
// On workerd the files come from the Workers assets binding (Miniflare 4), so
// validators, Range and HEAD lengths are the platform's; the path rules are Rove's.
import { renameSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SETTLED_MS } from '../../../src/middleware/static/file-cache.ts';
import { RUNTIMES } from '../../conformance/servers.ts';
import { abortAfterFirstChunk, BIG_SIZE, bigBytes, cssText, get, openFds, prepareRoot, SECRET, type Server, type StaticRoot, startStatic } from './harness.ts';

const CSS = cssText();

/** Paths that try to leave the root; each must answer 404 or 400 and never show a byte outside it. */
const ATTACKS = [
  '/static/../package.json',
  '/static/../secret.txt',
  '/static/%2e%2e/secret.txt',
  '/static/%2E%2E/secret.txt',
  '/static/.%2e/secret.txt',
  '/static/..%2fsecret.txt',
  '/static/..%2Fsecret.txt',
  '/static/..%5csecret.txt',
  '/static/..\\secret.txt',
  '/static/sub/..%5c..%5csecret.txt',
  '/static/%00',
  '/static/app.css%00.txt',
  '/static/app.css%00',
  '/static/%2e%2e%2f%2e%2e%2fsecret.txt',
  '/static/%252e%252e/secret.txt',
  '/static//etc/passwd',
  '/static/%2fetc%2fpasswd',
  '/static/.hidden',
  '/static/sub/%2e%2e/%2e%2e/secret.txt',
  '/static/%c0%ae%c0%ae/secret.txt',
  `/static/${'a/'.repeat(200)}x`,
  `/static/${'x'.repeat(5000)}`,
];

describe.each(RUNTIMES)('rove/static on %s', (runtime) => {
  const workerd = runtime === 'workerd';
  let root: StaticRoot;
  let server: Server;
  beforeAll(async () => {
    root = prepareRoot(!workerd);
    server = await startStatic(runtime, root.root);
  }, 60_000);
  afterAll(async () => {
    await server?.stop();
    root?.cleanup();
  });
  const req = (path: string, headers: Record<string, string> = {}, method = 'GET') => get(server.url, path, headers, method);

  it('serves a file with its type, length, validator and Cache-Control', async () => {
    const a = await req('/static/app.css');
    expect(a.status).toBe(200);
    expect(a.headers['content-type']).toBe('text/css; charset=utf-8');
    expect(a.headers['cache-control']).toBe('public, max-age=60');
    expect(a.headers.etag).toMatch(/^(W\/)?"[^"]+"$/);
    expect(a.body.toString()).toBe(CSS);
    if (!workerd) {
      expect(a.headers['content-length']).toBe(String(CSS.length));
      expect(a.headers['last-modified']).toMatch(/GMT$/);
      expect(a.headers['accept-ranges']).toBe('bytes');
      expect(a.headers.vary).toMatch(/accept-encoding/i);
    }
  });

  it('answers If-None-Match with 304 and no body', async () => {
    const first = await req('/static/app.css');
    const a = await req('/static/app.css', { 'if-none-match': String(first.headers.etag) });
    expect(a.status).toBe(304);
    expect(a.body.length).toBe(0);
    expect(a.headers.etag).toBe(first.headers.etag);
    const list = await req('/static/app.css', { 'if-none-match': `"nope", ${first.headers.etag}` });
    if (!workerd) expect(list.status).toBe(304); // Miniflare's assets compare the whole header
    const other = await req('/static/app.css', { 'if-none-match': '"something-else"' });
    expect(other.status).toBe(200);
  });

  it.skipIf(workerd)('answers If-Modified-Since with 304, and ignores a bogus date', async () => {
    const first = await req('/static/app.css');
    const lm = String(first.headers['last-modified']);
    expect((await req('/static/app.css', { 'if-modified-since': lm })).status).toBe(304);
    expect((await req('/static/app.css', { 'if-modified-since': new Date(Date.now() + 60_000).toUTCString() })).status).toBe(304);
    expect((await req('/static/app.css', { 'if-modified-since': 'Thu, 01 Jan 1970 00:00:00 GMT' })).status).toBe(200);
    for (const bogus of ['yesterday', 'Mon, 99 Foo 2020 99:99:99 GMT', '0', 'x'.repeat(2000), '-1']) {
      expect((await req('/static/app.css', { 'if-modified-since': bogus })).status).toBe(200);
    }
    // If-None-Match wins over If-Modified-Since.
    expect((await req('/static/app.css', { 'if-modified-since': lm, 'if-none-match': '"other"' })).status).toBe(200);
  });

  it.skipIf(workerd)('answers a single Range with 206, and an unsatisfiable one with 416', async () => {
    const a = await req('/static/app.css', { range: 'bytes=0-9' });
    expect(a.status).toBe(206);
    expect(a.headers['content-range']).toBe(`bytes 0-9/${CSS.length}`);
    expect(a.body.toString()).toBe(CSS.slice(0, 10));
    const suffix = await req('/static/app.css', { range: 'bytes=-5' });
    expect(suffix.status).toBe(206);
    expect(suffix.body.toString()).toBe(CSS.slice(-5));
    const open = await req('/static/app.css', { range: 'bytes=4090-' });
    expect(open.body.toString()).toBe(CSS.slice(4090));
    const bad = await req('/static/app.css', { range: 'bytes=5000-6000' });
    expect(bad.status).toBe(416);
    expect(bad.headers['content-range']).toBe(`bytes */${CSS.length}`);
    expect(bad.body.length).toBe(0);
  });

  it.skipIf(workerd)('answers hostile Range headers with the whole file or 416, never an error', async () => {
    const many = Array.from({ length: 500 }, (_, i) => `${i}-${i}`).join(',');
    for (const range of [many, 'bytes=0-0,0-0,0-0', `bytes=0-${'9'.repeat(400)}`, 'bytes=9-1', 'bytes=abc', 'items=0-1', 'bytes=--1', 'bytes=', 'bytes=-']) {
      const a = await req('/static/app.css', { range });
      expect([200, 416]).toContain(a.status);
      if (a.status === 200) expect(a.body.toString()).toBe(CSS);
    }
    const huge = await req('/static/app.css', { range: `bytes=0-${'9'.repeat(40)}` });
    expect(huge.status).toBe(206);
    expect(huge.body.length).toBe(CSS.length);
    // If-Range with a different validator: the whole file.
    const stale = await req('/static/app.css', { range: 'bytes=0-9', 'if-range': 'Thu, 01 Jan 1970 00:00:00 GMT' });
    expect(stale.status).toBe(200);
  });

  it('answers HEAD with the headers and no body', async () => {
    const a = await req('/static/app.css', {}, 'HEAD');
    expect(a.status).toBe(200);
    expect(a.body.length).toBe(0);
    expect(a.headers['content-type']).toBe('text/css; charset=utf-8');
    expect(a.headers.etag).toBeTruthy();
    if (!workerd) expect(a.headers['content-length']).toBe(String(CSS.length));
  });

  it('streams a large file intact, and ranges inside it', async () => {
    const a = await req('/static/big.bin');
    expect(a.status).toBe(200);
    expect(a.headers['content-type']).toBe('application/octet-stream');
    expect(a.body.length).toBe(BIG_SIZE);
    expect(Buffer.compare(a.body, Buffer.from(bigBytes()))).toBe(0);
    if (workerd) return;
    const part = await req('/static/big.bin', { range: 'bytes=70000-200000' });
    expect(part.status).toBe(206);
    expect(Buffer.compare(part.body, Buffer.from(bigBytes().subarray(70000, 200001)))).toBe(0);
  });

  it.skipIf(workerd)('closes the file when a client hangs up mid-download', async () => {
    for (let i = 0; i < 20; i++) await abortAfterFirstChunk(server.url, i % 2 ? '/static/huge.bin' : '/static/huge.bin?x');
    await Promise.all(Array.from({ length: 10 }, () => abortAfterFirstChunk(server.url, '/static/huge.bin')));
    const deadline = Date.now() + 5000;
    while (openFds(server.pid!, 'huge.bin') > 0 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
    expect(openFds(server.pid!, 'huge.bin')).toBe(0);
    expect((await req('/static/app.css')).status).toBe(200); // and it still serves
  });

  it.skipIf(workerd)('serves precompressed siblings when Accept-Encoding allows them', async () => {
    const gz = await req('/static/app.css', { 'accept-encoding': 'gzip' });
    expect(gz.headers['content-encoding']).toBe('gzip');
    expect(gz.headers['content-type']).toBe('text/css; charset=utf-8');
    expect(gz.headers.vary).toMatch(/accept-encoding/i);
    expect(gunzipSync(gz.body).toString()).toBe(CSS);
    const br = await req('/static/app.css', { 'accept-encoding': 'gzip, br' });
    expect(br.headers['content-encoding']).toBe('br');
    expect(brotliDecompressSync(br.body).toString()).toBe(CSS);
    expect(br.headers.etag).not.toBe(gz.headers.etag);
    const none = await req('/static/app.css', { 'accept-encoding': 'gzip;q=0, br;q=0' });
    expect(none.headers['content-encoding']).toBeUndefined();
    // A Range applies to the stored file, not to a compressed sibling.
    const ranged = await req('/static/app.css', { 'accept-encoding': 'gzip', range: 'bytes=0-9' });
    expect(ranged.headers['content-encoding']).toBeUndefined();
    expect(ranged.body.toString()).toBe(CSS.slice(0, 10));
  });

  it('serves index.html for a directory, and 404 for one without', async () => {
    const a = await req('/static/');
    expect(a.status).toBe(200);
    expect(a.body.toString()).toContain('root index');
    expect((await req('/static/docs/')).body.toString()).toContain('docs index');
    const bare = await req('/static/docs');
    if (!workerd) {
      expect(bare.status).toBe(301);
      expect(bare.headers.location).toBe('/static/docs/');
    }
    for (const path of ['/static/empty/', '/static/empty', '/static/sub/', '/static/sub']) {
      const r = await req(path);
      expect(r.status, path).toBe(404);
      expect(r.headers['content-type']).toBe('application/problem+json');
    }
    if (!workerd) expect((await req('/plain/')).status).toBe(404); // index: false
  });

  it('lets a missing file fall through to the next route or the 404', async () => {
    expect((await req('/static/missing.css')).status).toBe(404);
    const a = await req('/static/fallthrough');
    expect(a.status).toBe(200);
    expect(a.body.toString()).toBe('route after a missing file');
    expect((await req('/static/sub/name%20with%20space.txt')).body.toString()).toBe('spaced\n');
  });

  it('never lets a path leave the root', async () => {
    for (const path of ATTACKS) {
      const a = await req(path);
      expect([400, 404, 414], path).toContain(a.status);
      expect(a.body.toString(), path).not.toContain(SECRET);
      expect(a.body.toString(), path).not.toContain('"devDependencies"');
    }
  });

  it.skipIf(workerd)('refuses symlinks that point outside the root, and follows those inside', async () => {
    for (const path of ['/static/escape.txt', '/static/escape-rel.txt', '/static/escape-dir/secret.txt', '/static/escape-dir/package.json']) {
      const a = await req(path);
      expect(a.status, path).toBe(404);
      expect(a.body.toString()).not.toContain(SECRET);
    }
    expect((await req('/static/fifo.css')).status).toBe(404);
    const inner = await req('/static/inner-link.css');
    expect(inner.status).toBe(200);
    expect(inner.body.toString()).toBe(CSS);
  });

  it.skipIf(workerd)('keeps every rule on a revalidation: escapes, FIFOs and missing files never answer 304', async () => {
    const anything = { 'if-none-match': '*' };
    const future = { 'if-modified-since': new Date(Date.now() + 86_400_000).toUTCString() };
    for (const path of [
      '/static/escape.txt',
      '/static/escape-rel.txt',
      '/static/escape-dir/secret.txt',
      '/static/fifo.css',
      '/static/missing.css',
      ...ATTACKS,
    ]) {
      for (const headers of [anything, future]) {
        const a = await req(path, headers);
        expect([400, 404, 414], path).toContain(a.status);
        expect(a.body.toString(), path).not.toContain(SECRET);
      }
    }
    // A directory still redirects to its slash form, and the link inside the root revalidates.
    expect((await req('/static/docs', anything)).status).toBe(301);
    expect((await req('/static/sub', anything)).status).toBe(404);
    expect((await req('/static/inner-link.css', anything)).status).toBe(304);
  });

  it.skipIf(workerd)('sends a small file from memory only while it is the same file', async () => {
    const path = join(root.root, 'kept.css');
    const old = 1_600_000_000;
    writeFileSync(path, 'a { color: red }');
    utimesSync(path, old, old);
    await new Promise((r) => setTimeout(r, SETTLED_MS + 300)); // settled: now kept once read
    for (let i = 0; i < 3; i++) expect((await req('/static/kept.css')).body.toString()).toBe('a { color: red }');
    // Same size, the old mtime put back (as cp -p or rsync -t do): the ctime still tells.
    writeFileSync(path, 'b { color: red }');
    utimesSync(path, old, old);
    expect((await req('/static/kept.css')).body.toString()).toBe('b { color: red }');
    // Replaced by a rename: another inode.
    writeFileSync(join(root.root, 'kept.tmp'), 'c { color: red }');
    utimesSync(join(root.root, 'kept.tmp'), old, old);
    renameSync(join(root.root, 'kept.tmp'), path);
    expect((await req('/static/kept.css')).body.toString()).toBe('c { color: red }');
    const range = await req('/static/kept.css', { range: 'bytes=2-6' });
    expect(range.status).toBe(206);
    expect(range.body.toString()).toBe('{ col');
  });

  it.skipIf(workerd)('revalidates against the file as it is now', async () => {
    const path = join(root.root, 'changing.css');
    writeFileSync(path, 'a { color: red }');
    utimesSync(path, 1_600_000_000, 1_600_000_000);
    const first = await req('/static/changing.css');
    expect(first.status).toBe(200);
    expect((await req('/static/changing.css', { 'if-none-match': String(first.headers.etag) })).status).toBe(304);
    writeFileSync(path, 'a { color: blue; }');
    utimesSync(path, 1_700_000_000, 1_700_000_000);
    // Bun remembers a file's size and mtime for up to a second (RECENT_TTL_MS).
    await new Promise((r) => setTimeout(r, 1100));
    const after = await req('/static/changing.css', { 'if-none-match': String(first.headers.etag) });
    expect(after.status).toBe(200);
    expect(after.body.toString()).toBe('a { color: blue; }');
    expect(after.headers.etag).not.toBe(first.headers.etag);
  });

  it('leaves other methods to the app', async () => {
    const a = await req('/static/app.css', {}, 'POST');
    expect([404, 405]).toContain(a.status);
  });
});
