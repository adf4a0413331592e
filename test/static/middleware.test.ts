// serveStatic in process (the Node file source, the app's own handle()): events,
// options, and how it composes with other middleware.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { serveStatic } from '../../adapters/static-node.ts';
import { App } from '../../src/index.ts';
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
