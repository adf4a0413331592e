// serveStatic in process (the Node file source, the app's own handle()): events,
// options, and how it composes with other middleware.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { serveStatic } from '../../../adapters/node/static.ts';
import { App } from '../../../src/index.ts';
import { type FileSource, inMemory, serveFrom } from '../../../src/middleware/static/index.ts';
import { prepareRoot, type StaticRoot } from './harness.ts';

let root: StaticRoot;
beforeAll(() => {
  root = prepareRoot();
});
afterAll(() => root.cleanup());

const call = async (app: App<any>, path: string, init: RequestInit = {}) => await app.handle(new Request(`http://localhost${path}`, init), {}, undefined);

describe('serveStatic in an app', () => {
  it('reports refused paths as static:rejected events', async () => {
    const app = new App();
    const seen: { path: string; reason: string }[] = [];
    app.on('static:rejected', (e) => {
      seen.push(e.metadata);
    });
    app.use('/static', serveStatic({ root: root.root, prefix: '/static' }));
    expect((await call(app, '/static/%2e%2e/secret.txt')).status).toBe(404); // the router resolves it to /secret.txt first
    expect((await call(app, '/static/.env')).status).toBe(404);
    expect((await call(app, '/static/a%00')).status).toBe(404);
    expect(seen.map((s) => s.reason)).toEqual(['dotfile', 'slash, backslash or control character in a segment']);
  });

  it('keeps headers other middleware set, on GET and HEAD', async () => {
    const app = new App();
    app.use(async (c, next) => {
      c.header('x-frame-options', 'DENY');
      await next();
    });
    app.use('/static', serveStatic({ root: root.root, prefix: '/static' }));
    for (const method of ['GET', 'HEAD']) {
      const a = await call(app, '/static/app.css', { method });
      expect(a.headers.get('x-frame-options'), method).toBe('DENY');
      expect(a.headers.get('content-length'), method).toBe('4096');
    }
  });

  it('redirects the bare prefix and directories to their slash, keeping the query', async () => {
    const app = new App();
    app.use('/static', serveStatic({ root: root.root, prefix: '/static' }));
    const a = await call(app, '/static?x=1');
    expect(a.status).toBe(301);
    expect(a.headers.get('location')).toBe('/static/?x=1');
    expect((await call(app, '/static/docs?y=2')).headers.get('location')).toBe('/static/docs/?y=2');
  });

  it('takes extra content types, and serves from the URL root without a prefix', async () => {
    const app = new App();
    app.use(serveStatic({ root: root.root, mimeTypes: { bin: 'application/x-test' }, etag: false, lastModified: false }));
    const a = await call(app, '/big.bin');
    expect(a.headers.get('content-type')).toBe('application/x-test');
    expect(a.headers.get('etag')).toBeNull();
    expect(a.headers.get('last-modified')).toBeNull();
    expect((await a.arrayBuffer()).byteLength).toBeGreaterThan(300_000);
    expect((await call(app, '/')).status).toBe(200);
  });

  it('refuses bad options when it is called', () => {
    expect(() => serveStatic({ root: '/no/such/dir' })).toThrow(/cannot be read/);
    expect(() => serveStatic({ root: root.root, index: '../x' })).toThrow(TypeError);
    expect(() => serveStatic({ root: root.root, cacheControl: 'a\r\nb' })).toThrow(TypeError);
    expect(() => serveStatic({ root: root.root, prefix: '/a/../b' })).toThrow(TypeError);
  });
});

describe('serveFrom with a source that can stat', () => {
  const bytes = new TextEncoder().encode('body { color: red }');
  const mtimeMs = Date.UTC(2024, 0, 2, 3, 4, 5);
  function counting() {
    const calls = { open: 0, stat: 0 };
    const source: FileSource = {
      open(rel) {
        calls.open++;
        return rel === 'app.css' ? inMemory(bytes, mtimeMs) : undefined;
      },
      stat(rel) {
        calls.stat++;
        return Promise.resolve(rel === 'app.css' ? { size: bytes.length, mtimeMs } : undefined);
      },
    };
    const app = new App();
    app.use('/s', serveFrom(source, { prefix: '/s', cacheControl: 'max-age=60' }));
    return { app, calls };
  }

  it('answers a fresh revalidation from stat alone, with the headers the opened file would give', async () => {
    const { app, calls } = counting();
    const full = await call(app, '/s/app.css');
    expect(calls).toEqual({ open: 1, stat: 0 }); // no validator: straight to open
    const etag = full.headers.get('etag')!;
    const fresh = await call(app, '/s/app.css', { headers: { 'if-none-match': etag } });
    expect(fresh.status).toBe(304);
    expect(calls).toEqual({ open: 1, stat: 1 });
    // The same answer as from a source without stat (which opens the file, then compares).
    const plain = new App();
    plain.use('/s', serveFrom({ open: () => inMemory(bytes, mtimeMs) }, { prefix: '/s', cacheControl: 'max-age=60' }));
    const viaOpen = await call(plain, '/s/app.css', { headers: { 'if-none-match': etag } });
    expect(viaOpen.status).toBe(304);
    expect([...fresh.headers]).toEqual([...viaOpen.headers]);
    const since = await call(app, '/s/app.css', { headers: { 'if-modified-since': full.headers.get('last-modified')! } });
    expect(since.status).toBe(304);
    expect(calls.open).toBe(1);
  });

  it('opens the file when the copy is stale, or the path is not a file the source can stat', async () => {
    const { app, calls } = counting();
    const stale = await call(app, '/s/app.css', { headers: { 'if-none-match': 'W/"other"' } });
    expect(stale.status).toBe(200);
    expect(await stale.text()).toBe('body { color: red }');
    expect(calls).toEqual({ open: 1, stat: 1 });
    expect((await call(app, '/s/missing.css', { headers: { 'if-none-match': '*' } })).status).toBe(404);
    expect(calls).toEqual({ open: 2, stat: 2 });
  });
});
