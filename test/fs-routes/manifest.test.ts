// The route table from the manifest equals the scanned one: same routes, same
// middleware, same order, and the very same handler functions.
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { listFiles, scanRoutes } from '../../adapters/shared/fs-routes.ts';
import { buildRoutes } from '../../scripts/build-routes.ts';
import { classifyRouteFile } from '../../src/fs-routes/conventions.ts';
import { fileRoutes } from '../../src/fs-routes/index.ts';
import { manifestEntries, type RouteManifest, writeManifest } from '../../src/fs-routes/manifest.ts';
import { buildRouteTable, describeRouteTable, type RouteTable } from '../../src/fs-routes/table.ts';
import { App } from '../../src/index.ts';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));

async function scannedTable(dir: string): Promise<RouteTable> {
  const loader = scanRoutes(dir);
  const entries = [];
  for (const { file } of await loader.list()) if (classifyRouteFile(file) !== null) entries.push({ file, module: await loader.load(file, 0) });
  return buildRouteTable(entries);
}

function expectSameTable(fromManifest: RouteTable, scanned: RouteTable): void {
  expect(describeRouteTable(fromManifest)).toEqual(describeRouteTable(scanned));
  // Not just equal descriptions: the same module instances, hence the same handlers.
  fromManifest.routes.forEach((r, i) => {
    for (const method of Object.keys(r.handlers)) expect(r.handlers[method]).toBe(scanned.routes[i].handlers[method]);
  });
  fromManifest.middleware.forEach((m, i) => expect(m.handlers).toEqual(scanned.middleware[i].handlers));
}

// Every row of the conventions table, plus files that must stay out.
const FIXTURE: Record<string, string> = {
  'index.ts': `export const GET = (c) => c.text('home');`,
  'about.ts': `export function GET(c) { return c.text('about'); }\nexport function POST(c) { return c.text('posted'); }`,
  'users/[id].ts': `export const GET = (c) => c.text('user ' + c.req.param('id'));`,
  'users/_middleware.ts': `export default async (c, next) => { await next(); };`,
  'users/[id]/posts.js': `export default (c) => c.text('any');`,
  'docs/[...path].mjs': `export const GET = (c) => c.text(c.req.param('path'));`,
  '_middleware.ts': `export default [async (c, next) => next(), async (c, next) => next()];`,
  '_lib/x.ts': `throw new Error('a helper must not be imported as a route');`,
  '_x.ts': `throw new Error('ignored');`,
  'x.test.ts': `throw new Error('ignored');`,
  'notes.md': '# not a route',
};

describe('fs-routes manifest', () => {
  const made: string[] = [];
  afterAll(() => made.forEach((d) => rmSync(d, { recursive: true, force: true })));

  it('the manifest of a directory with every convention equals its scan', async () => {
    // Inside the repo, so the files are ES modules (package.json "type": "module").
    mkdirSync(join(ROOT, 'tmp'), { recursive: true });
    const dir = mkdtempSync(join(ROOT, 'tmp', 'fs-routes-manifest-'));
    made.push(dir);
    for (const [file, text] of Object.entries(FIXTURE)) {
      mkdirSync(dirname(join(dir, 'routes', file)), { recursive: true });
      writeFileSync(join(dir, 'routes', file), text);
    }
    const out = join(dir, 'routes.gen.ts');
    expect(await buildRoutes(join(dir, 'routes'), out)).toBe(7);
    const text = readFileSync(out, 'utf8');
    expect(text).toContain('import * as m0 from "./routes/_middleware.ts";');
    expect(text).toContain('"./routes/docs/[...path].mjs"');
    expect(text).not.toContain('_lib');
    expect(text).not.toContain('x.test');
    const manifest = (await import(pathToFileURL(out).href)).default as RouteManifest;
    const fromManifest = buildRouteTable(manifestEntries(manifest));
    expectSameTable(fromManifest, await scannedTable(join(dir, 'routes')));
    expect(describeRouteTable(fromManifest).routes.map((r) => `${r.method} ${r.pattern}`)).toEqual([
      'GET /about',
      'POST /about',
      'GET /docs/*path',
      'GET /',
      'GET /users/:id',
      'ALL /users/:id/posts',
    ]);
    // And through the public API: fileRoutes(app, dir) and fileRoutes(app, manifest) make apps that answer alike.
    const scanned = await fileRoutes(new App(), join(dir, 'routes'));
    const built = fileRoutes(new App(), manifest);
    expect(built.routeList).toEqual(scanned.routeList);
    for (const [method, path] of [
      ['GET', '/'],
      ['POST', '/about'],
      ['GET', '/users/3'],
      ['PUT', '/users/3/posts'],
      ['GET', '/docs/a/b'],
      ['GET', '/_lib/x'],
      ['DELETE', '/about'],
    ]) {
      const a = await scanned.fetch(new Request(`http://x${path}`, { method }));
      const b = await built.fetch(new Request(`http://x${path}`, { method }));
      expect([b.status, await b.text()]).toEqual([a.status, await a.text()]);
    }
  });

  it('examples/bench-fs: the manifest equals the scan', async () => {
    const { default: manifest } = await import('../../examples/bench-fs/routes.gen.ts');
    const fromManifest = buildRouteTable(manifestEntries(manifest));
    expectSameTable(fromManifest, await scannedTable(join(ROOT, 'examples/bench-fs/routes')));
    expect(fromManifest.routes.length).toBe(14);
    expect(fromManifest.middleware.map((m) => m.prefix)).toEqual(['/chain', '/params']);
    expect(manifest.views?.format).toBe('rove-views');
  });

  it('examples/bench-fs/routes.gen.ts is up to date with its routes directory (run npm run build:routes)', async () => {
    const files = (await listFiles(join(ROOT, 'examples/bench-fs/routes'))).map((f) => f.file);
    const want = writeManifest({
      files,
      routesImport: './routes',
      viewsImport: './views.gen.ts',
      command: '`npm run build:routes` from examples/bench-fs/routes',
    });
    expect(readFileSync(join(ROOT, 'examples/bench-fs/routes.gen.ts'), 'utf8')).toBe(want);
  });

  it('the manifest writer refuses what the scanner refuses, naming the files', () => {
    expect(() => writeManifest({ files: ['a.ts', 'a/index.ts'], routesImport: './routes' })).toThrow('a.ts, a/index.ts: both files define the route /a');
    expect(() => writeManifest({ files: ['user-[id].ts'], routesImport: './routes' })).toThrow('user-[id].ts');
    expect(() => writeManifest({ files: [], routesImport: 'routes' })).toThrow('relative path');
  });
});
