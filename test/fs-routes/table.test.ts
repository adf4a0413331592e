import { describe, expect, it } from 'vitest';
import { FileRouteError } from '../../src/fs-routes/conventions.ts';
import { fileRoutes } from '../../src/fs-routes/index.ts';
import { MANIFEST_FORMAT, MANIFEST_VERSION, type RouteManifest } from '../../src/fs-routes/manifest.ts';
import { buildRouteTable, describeRouteTable, type RouteModule } from '../../src/fs-routes/table.ts';
import { App, type Context, type Next } from '../../src/index.ts';

const text = (body: string) => (c: Context) => c.text(body);

function manifest(files: Record<string, RouteModule>): RouteManifest {
  return { format: MANIFEST_FORMAT, version: MANIFEST_VERSION, files };
}

async function get(app: App<any>, path: string, method = 'GET') {
  const res = await app.fetch(new Request(`http://x${path}`, { method }));
  return { status: res.status, body: await res.text(), allow: res.headers.get('allow') };
}

function thrown(fn: () => unknown): FileRouteError {
  try {
    fn();
  } catch (e) {
    expect(e).toBeInstanceOf(FileRouteError);
    return e as FileRouteError;
  }
  throw new Error('expected a FileRouteError');
}

describe('fs-routes table', () => {
  it('serves the conventions table through fileRoutes(app, manifest)', async () => {
    const app = fileRoutes(
      new App(),
      manifest({
        'index.ts': { GET: text('home') },
        'about.ts': { GET: text('about') },
        'users/[id].ts': { GET: (c: Context) => c.text(`user ${c.req.param('id')}`) },
        'docs/[...path].ts': { GET: (c: Context) => c.text(`docs ${c.req.param('path')}`) },
        'users/_middleware.ts': {
          default: async (c: Context, next: Next) => {
            await next();
            c.res.headers.set('x-users', '1');
          },
        },
        '_lib/x.ts': { helper: () => 1 },
        'x.test.ts': {},
      }),
    );
    expect(await get(app, '/')).toMatchObject({ status: 200, body: 'home' });
    expect(await get(app, '/about')).toMatchObject({ status: 200, body: 'about' });
    expect(await get(app, '/users/42')).toMatchObject({ status: 200, body: 'user 42' });
    expect(await get(app, '/docs/a/b/c')).toMatchObject({ status: 200, body: 'docs a/b/c' });
    expect((await app.fetch(new Request('http://x/users/42'))).headers.get('x-users')).toBe('1');
    expect((await app.fetch(new Request('http://x/about'))).headers.get('x-users')).toBeNull();
    expect((await get(app, '/_lib/x')).status).toBe(404);
    expect((await get(app, '/x.test')).status).toBe(404);
  });

  it('a module exports handlers by method, and default answers every other method', async () => {
    const app = fileRoutes(
      new App(),
      manifest({
        'a.ts': { GET: text('get a'), POST: text('post a') },
        'b.ts': { GET: text('get b'), default: (c: Context) => c.text(`any ${c.req.method}`) },
      }),
    );
    expect(await get(app, '/a', 'POST')).toMatchObject({ body: 'post a' });
    expect(await get(app, '/a', 'DELETE')).toMatchObject({ status: 405, allow: 'GET, HEAD, POST, OPTIONS' });
    expect(await get(app, '/a', 'HEAD')).toMatchObject({ status: 200, body: 'get a' }); // the server drops a HEAD body
    expect(await get(app, '/b')).toMatchObject({ body: 'get b' });
    expect(await get(app, '/b', 'PUT')).toMatchObject({ body: 'any PUT' });
  });

  it('precedence follows the router: the most specific file wins, whatever the names sort as', async () => {
    const app = fileRoutes(
      new App(),
      manifest({
        '[...all].ts': { GET: text('catch-all') },
        '[a]/[b].ts': { GET: text('params') },
        '[a]/new.ts': { GET: text('param then static') },
        'users/[id].ts': { GET: text('user') },
        'users/new.ts': { GET: text('new user') },
      }),
    );
    expect((await get(app, '/users/new')).body).toBe('new user');
    expect((await get(app, '/users/7')).body).toBe('user');
    expect((await get(app, '/posts/new')).body).toBe('param then static');
    expect((await get(app, '/posts/7')).body).toBe('params');
    expect((await get(app, '/a/b/c')).body).toBe('catch-all');
  });

  it('middleware runs outer directory first, and only for its subtree', async () => {
    const order: string[] = [];
    const mark = (name: string) => async (_c: Context, next: Next) => {
      order.push(name);
      await next();
    };
    const app = fileRoutes(
      new App(),
      manifest({
        'users/[id]/_middleware.ts': { default: mark('user') },
        'users/_middleware.ts': { default: [mark('users 1'), mark('users 2')] },
        '_middleware.ts': { default: mark('root') },
        'users/[id]/index.ts': { GET: text('ok') },
        'other.ts': { GET: text('other') },
      }),
    );
    await get(app, '/users/1');
    expect(order).toEqual(['root', 'users 1', 'users 2', 'user']);
    order.length = 0;
    await get(app, '/other');
    expect(order).toEqual(['root']);
  });

  it('file routes mount beside code routes, and app middleware wraps them', async () => {
    const app = new App();
    app.use(async (c, next) => {
      await next();
      c.res.headers.set('x-app', '1');
    });
    app.get('/code', text('code'));
    fileRoutes(app, manifest({ 'file.ts': { GET: text('file') } }), { prefix: '/api' });
    expect((await get(app, '/code')).body).toBe('code');
    const res = await app.fetch(new Request('http://x/api/file'));
    expect(await res.text()).toBe('file');
    expect(res.headers.get('x-app')).toBe('1');
    expect(app.routeList).toEqual([
      { method: 'GET', path: '/code' },
      { method: 'GET', path: '/api/file' },
    ]);
  });

  it('a module that exports no handler is an error naming the file', () => {
    const e = thrown(() => buildRouteTable([{ file: 'users/[id].ts', module: { get: () => 1 } }]));
    expect(e.files).toEqual(['users/[id].ts']);
    expect(e.message).toMatch(/users\/\[id\]\.ts: exports no handler.*it exports get/);
    expect(thrown(() => buildRouteTable([{ file: 'empty.ts', module: {} }])).message).toContain('empty.ts: exports no handler');
  });

  it('an export that is not a function is an error naming the file and the export', () => {
    const e = thrown(() => buildRouteTable([{ file: 'a.ts', module: { GET: text('x'), POST: 'nope' } }]));
    expect(e.message).toBe('a.ts: the export "POST" is not a function (a route module exports handlers)');
    expect(thrown(() => buildRouteTable([{ file: 'b.ts', module: { GET: text('x'), config: { a: 1 } } }])).message).toContain('"config"');
  });

  it('middleware must export default a function or an array of functions', () => {
    expect(thrown(() => buildRouteTable([{ file: '_middleware.ts', module: {} }])).message).toContain('_middleware.ts: exports no middleware');
    expect(thrown(() => buildRouteTable([{ file: 'a/_middleware.ts', module: { default: [] } }])).message).toContain('exports no middleware');
    expect(thrown(() => buildRouteTable([{ file: 'a/_middleware.ts', module: { default: [() => 1, 2] } }])).message).toContain(
      'default export[1] is not a function',
    );
  });

  it('two files for one route are an error naming both', () => {
    const e = thrown(() =>
      buildRouteTable([
        { file: 'users/[id].ts', module: { GET: text('a') } },
        { file: 'users/[name]/index.ts', module: { GET: text('b') } },
      ]),
    );
    expect(e.files).toEqual(['users/[id].ts', 'users/[name]/index.ts']);
    expect(e.message).toContain('both files define the route /users/:name');
  });

  it('describes a table as plain data', () => {
    const table = buildRouteTable([
      { file: 'a.ts', module: { POST: text('x'), GET: text('y'), default: text('z') } },
      { file: '_middleware.ts', module: { default: [text('m'), text('n')] } },
    ]);
    expect(describeRouteTable(table)).toEqual({
      routes: [
        { method: 'ALL', pattern: '/a', file: 'a.ts' },
        { method: 'GET', pattern: '/a', file: 'a.ts' },
        { method: 'POST', pattern: '/a', file: 'a.ts' },
      ],
      middleware: [{ prefix: '/', file: '_middleware.ts', layers: 2 }],
    });
  });

  it('a manifest from another version is refused with a clear message', () => {
    expect(() => fileRoutes(new App(), { ...manifest({}), version: 99 })).toThrow(/version 99.*run the routes build again/);
  });

  it('fileRoutes(app, dir) without the scanner explains what to import, or to use a manifest on the edge', async () => {
    // Test files run isolated, and nothing here imports adapters/shared/fs-routes.ts.
    await expect(fileRoutes(new App(), './routes')).rejects.toThrow(/import 'rove\/fs-routes'.*build:routes/);
  });
});
