// The package as users get it: `npm pack` (the files list the package really ships), a new app
// written by create-rove into a temp directory outside the repo, the tarball installed there from
// the npm cache, then the app run from the installed package on every runtime, its own tests,
// `tsc --noEmit` against the installed types, and `wrangler deploy --dry-run` served by workerd.
// Runtimes (node, deno, bun, workerd) are binaries; every module resolves inside the temp app.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Child, freePort, ROOT, resolveBin, startChild, stopChild } from '../../dev/proc.ts';
import { workerdConfig } from '../../dev/workerd.ts';
import { packageExports } from './exports.ts';
import { ready } from './ready.ts';

let work: string;
let app: string;
let tarball: string;
let packed: { size: number; unpackedSize: number; files: { path: string }[] };

/** Run a command to its end; its stdout, or with `expectStatus`, its stderr when it exits with that status. */
function run(bin: string, args: string[], cwd: string, env: Record<string, string> = {}, expectStatus?: number): string {
  try {
    return execFileSync(bin, args, { cwd, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, NO_COLOR: '1', ...env } });
  } catch (error) {
    const e = error as { status?: number; stdout?: string; stderr?: string; message: string };
    if (expectStatus !== undefined && e.status === expectStatus) return e.stderr ?? '';
    throw new Error(`${bin} ${args.join(' ')} failed in ${cwd}:\n${e.stderr ?? ''}\n${e.stdout ?? ''}`);
  }
}

beforeAll(() => {
  // Outside the repo: nothing in it may resolve to the repo's node_modules or sources.
  work = mkdtempSync(join(realpathSync(tmpdir()), 'rove-packed-'));
  expect(relative(ROOT, work).startsWith('..')).toBe(true);
  // `npm test` builds dist/ first; packing without `prepare` keeps this file from rewriting dist/
  // while other test files read it. A dist/ older than its sources fails here instead of testing stale code.
  for (const e of packageExports(ROOT)) {
    const built = join(ROOT, e.conditions.default);
    const stale = !existsSync(built) || statSync(built).mtimeMs < statSync(join(ROOT, e.source)).mtimeMs;
    if (stale) throw new Error(`${e.conditions.default} is missing or older than ${e.source}: run npm run build first`);
  }
  packed = JSON.parse(run('npm', ['pack', '--json', '--ignore-scripts', '--pack-destination', work], ROOT))[0];
  tarball = join(work, (packed as unknown as { filename: string }).filename);
  app = join(work, 'my-app');
  run(process.execPath, [join(ROOT, 'create-rove/index.js'), app, '--yes', '--rove', tarball], work);
  // From the npm cache where it can (the registry may be unreachable); the app's tools are the repo's pinned versions.
  run('npm', ['install', '--prefer-offline', '--no-audit', '--no-fund', '--loglevel=error'], app);
  // Optional peers (rove/otel needs @opentelemetry/api), as a user of those entries installs them.
  const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8'));
  // zod: the README's first app validates with it.
  const peers = [...Object.keys(pkg.peerDependencies ?? {}), 'zod'].map((name) => `${name}@${pkg.devDependencies[name] ?? pkg.peerDependencies[name]}`);
  if (peers.length > 0) run('npm', ['install', '--prefer-offline', '--no-audit', '--no-fund', '--loglevel=error', ...peers], app);
  writeFirstApp();
}, 600_000);

afterAll(() => {
  if (work) rmSync(work, { recursive: true, force: true });
});

describe('the packed package', () => {
  it('ships src, adapters, dist, README and LICENSE, nothing else', () => {
    const paths = packed.files.map((f) => f.path);
    const top = new Set(paths.map((p) => (p.includes('/') ? `${p.split('/')[0]}/` : p)));
    expect([...top].sort()).toEqual(['LICENSE', 'README.md', 'adapters/', 'dist/', 'package.json', 'src/']);
    expect(paths.some((p) => p.endsWith('.test.ts'))).toBe(false);
    // No leftovers of a module that was renamed or removed: every built file has its source.
    const orphans = paths.filter((p) => p.startsWith('dist/') && !paths.includes(p.slice('dist/'.length).replace(/\.(d\.ts|js)$/, '.ts')));
    expect(orphans).toEqual([]);
    // Every export's files are in it: types, the JS Node runs, the source Bun and bundlers read.
    for (const e of packageExports(ROOT)) {
      for (const file of new Set(Object.values(e.conditions))) expect(paths, `${e.specifier}: ${file}`).toContain(file.slice(2));
    }
    console.log(`rove packed: ${packed.size} bytes (${packed.unpackedSize} unpacked), ${paths.length} files`);
  });

  it('is installed as a copy inside the app, not a link into the repo', () => {
    const installed = realpathSync(join(app, 'node_modules/rove'));
    expect(installed.startsWith(app)).toBe(true);
    expect(existsSync(join(installed, 'dist/src/index.js'))).toBe(true);
  });

  it("runs the new app's own tests (vitest, app.request)", () => {
    const out = run(process.execPath, [join(app, 'node_modules/vitest/vitest.mjs'), 'run'], app);
    expect(out).toMatch(/Tests\s+5 passed/);
  }, 120_000);

  it('type-checks with tsc --noEmit against the installed types', () => {
    run(process.execPath, [join(app, 'node_modules/typescript/bin/tsc'), '--noEmit', '-p', 'tsconfig.json'], app);
    // As a Vite or Wrangler project resolves it ("bundler"), the same types.
    run(
      process.execPath,
      [join(app, 'node_modules/typescript/bin/tsc'), '--noEmit', '-p', 'tsconfig.json', '--module', 'esnext', '--moduleResolution', 'bundler'],
      app,
    );
  }, 120_000);

  it('loads every entry point on node, deno and bun from the installed package', () => {
    const names = packageExports(ROOT).map((e) => e.specifier);
    const script = `const out = {}; for (const n of ${JSON.stringify(names)}) out[n] = Object.keys(await import(n)).length; console.log(JSON.stringify(out));`;
    const file = join(app, 'entries.mjs');
    writeFileSync(file, script);
    const last = (text: string) => JSON.parse(text.trim().split('\n').pop()!);
    const node = last(run(process.execPath, [file], app));
    const deno = last(run(resolveBin('deno'), ['run', '--allow-read', '--allow-env', file], app, { DENO_NO_UPDATE_CHECK: '1' }));
    const bun = last(run(resolveBin('bun'), [file], app));
    for (const n of names) expect(node[n], n).toBeGreaterThan(0);
    expect(deno).toEqual(node);
    expect(bun).toEqual(node);
  }, 120_000);
});

describe('the rove command from the installed package', () => {
  it('compiles views and writes the routes manifest that Workers and Deno Deploy need', () => {
    const bin = join(app, 'node_modules/.bin/rove');
    expect(run(process.execPath, [bin, 'build:views', 'first/views', 'first/views.gen.ts'], app)).toContain('(1 views)');
    expect(run(process.execPath, [bin, 'build:routes', 'first/routes', 'first/routes.gen.ts', '--views', 'first/views.gen.ts'], app)).toContain('(1 modules');
    // The edge's way in: compiled views and a manifest, no file read at run time.
    writeFileSync(
      join(app, 'first/edge.ts'),
      `import { App } from 'rove';
import { fileRoutes } from 'rove/fs-routes';
import { createViews } from 'rove/views';
import manifest from './routes.gen.ts';
import views from './views.gen.ts';

const app = new App({ views: createViews({ compiled: views }) });
app.get('/hello/:name', (c) => c.render('hello', { name: c.req.param('name') }));
fileRoutes(app, manifest);
console.log(JSON.stringify([await (await app.request('/hello/Ada')).text(), await (await app.request('/pages/x')).text()]));
`,
    );
    const out = run(process.execPath, ['--import', 'tsx', 'first/edge.ts'], app);
    expect(JSON.parse(out.trim().split('\n').pop()!)).toEqual(['Hello Ada!', 'page x']);
    expect(run(process.execPath, [bin, 'build:views'], app, {}, 2)).toContain('usage');
  }, 60_000);
});

const DENO = ['--allow-net', '--allow-env', '--allow-read'];
const GREETING = 'Hello from the packed app';

describe.each(['node', 'deno', 'bun', 'deno serve', 'workerd'] as const)('the new app on %s, from the installed package', (runtime) => {
  let child: Child;
  let url: string;

  beforeAll(async () => {
    const port = await freePort();
    url = `http://127.0.0.1:${port}`;
    const env = { PORT: String(port), HOST: '127.0.0.1', GREETING, DENO_NO_UPDATE_CHECK: '1' };
    if (runtime === 'node') child = startChild(process.execPath, ['--import', 'tsx', 'src/node.ts'], env, app);
    if (runtime === 'deno') child = startChild(resolveBin('deno'), ['run', ...DENO, 'src/deno.ts'], env, app);
    if (runtime === 'bun') child = startChild(resolveBin('bun'), ['src/bun.ts'], env, app);
    if (runtime === 'deno serve')
      child = startChild(resolveBin('deno'), ['serve', ...DENO, '--host', '127.0.0.1', '--port', String(port), 'src/deploy.ts'], env, app);
    if (runtime === 'workerd') {
      // Exactly what `wrangler deploy` would upload, with the app's own wrangler.
      const out = join(work, `bundle-${port}`);
      mkdirSync(out);
      run(process.execPath, [join(app, 'node_modules/wrangler/bin/wrangler.js'), 'deploy', '--dry-run', '--outdir', out], app, {
        WRANGLER_SEND_METRICS: 'false',
      });
      expect(existsSync(join(out, 'worker.js'))).toBe(true);
      // A worker's bindings come from wrangler.toml [vars], as on Cloudflare.
      writeFileSync(join(out, 'config.capnp'), workerdConfig({ port, module: 'worker.js', bindings: { GREETING: 'Hello from Workers' } }));
      child = startChild(resolveBin('workerd'), ['serve', join(out, 'config.capnp')], env, out);
    }
    await ready(child, url, runtime);
  }, 120_000);

  afterAll(async () => {
    if (child) await stopChild(child);
  });

  it('answers the hello contract', async () => {
    const home = await fetch(`${url}/`);
    expect(home.headers.get('content-type')).toBe('application/json');
    expect(await home.json()).toEqual({ hello: 'world' });
    expect(await (await fetch(`${url}/users/caf%C3%A9`)).json()).toEqual({ id: 'café' });
    const echo = await fetch(`${url}/echo`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"a":[1,2]}' });
    expect(await echo.json()).toEqual({ a: [1, 2] });
    const missing = await fetch(`${url}/nope`, { headers: { accept: 'application/json' } });
    expect(missing.status).toBe(404);
    expect(missing.headers.get('content-type')).toBe('application/problem+json');
    expect(await (await fetch(`${url}/env`)).text()).toBe(runtime === 'workerd' ? 'Hello from Workers' : GREETING);
  });
});

/**
 * A newcomer's first app, put together from the README and the docs' first examples: the
 * ten-line app (zod validation), views from a directory named by `new URL(..., import.meta.url)`,
 * and file routes from a URL, served with `serve()` on Node, Deno and Bun.
 */
function writeFirstApp(): void {
  const dir = join(app, 'first');
  mkdirSync(join(dir, 'views'), { recursive: true });
  mkdirSync(join(dir, 'routes/pages'), { recursive: true });
  writeFileSync(
    join(dir, 'app.ts'),
    `import { App, validate } from 'rove';
import { fileRoutes } from 'rove/fs-routes';
import { createViews } from 'rove/views';
import { z } from 'zod';

export const app = new App({ views: createViews({ dir: new URL('./views/', import.meta.url) }) });
app.get('/', (c) => c.json({ hello: 'world' }));
app.get('/users/:id{[0-9]+}', (c) => c.json({ id: c.req.param('id') }));
app.post('/users', validate('json', z.object({ name: z.string() })), (c) => c.json(c.valid('json'), 201));
app.get('/search', (c) => c.text(\`you asked for \${c.req.query('q') ?? 'nothing'}\`));
app.get('/hello/:name', (c) => c.render('hello', { name: c.req.param('name') }));
await fileRoutes(app, new URL('./routes/', import.meta.url));
`,
  );
  writeFileSync(join(dir, 'views/hello.dve'), 'Hello {{ name }}!');
  writeFileSync(
    join(dir, 'routes/pages/[slug].ts'),
    "import type { Context } from 'rove';\n\nexport function GET(c: Context) {\n  return c.text(['page', c.req.param('slug')].join(' '));\n}\n",
  );
  for (const runtime of ['node', 'deno', 'bun']) {
    writeFileSync(
      join(dir, `${runtime}.ts`),
      `import { serve } from 'rove/${runtime}';\nimport { app } from './app.ts';\n\nserve(app, { port: Number(process.env.PORT), hostname: '127.0.0.1' });\n`,
    );
  }
}

describe.each(['node', 'deno', 'bun'] as const)("a newcomer's first app on %s, from the installed package", (runtime) => {
  let child: Child;
  let url: string;

  beforeAll(async () => {
    const port = await freePort();
    url = `http://127.0.0.1:${port}`;
    const env = { PORT: String(port), DENO_NO_UPDATE_CHECK: '1' };
    const entry = `first/${runtime}.ts`;
    if (runtime === 'node') child = startChild(process.execPath, ['--import', 'tsx', entry], env, app);
    if (runtime === 'deno') child = startChild(resolveBin('deno'), ['run', ...DENO, entry], env, app);
    if (runtime === 'bun') child = startChild(resolveBin('bun'), [entry], env, app);
    await ready(child, url, runtime);
  }, 60_000);

  afterAll(async () => {
    if (child) await stopChild(child);
  });

  it('answers every README example', async () => {
    expect(await (await fetch(`${url}/`)).json()).toEqual({ hello: 'world' });
    expect(await (await fetch(`${url}/users/12`)).json()).toEqual({ id: '12' });
    expect((await fetch(`${url}/users/abc`)).status).toBe(404);
    const created = await fetch(`${url}/users`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"name":"Ada"}' });
    expect(created.status).toBe(201);
    expect(await created.json()).toEqual({ name: 'Ada' });
    const invalid = await fetch(`${url}/users`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"name":1}' });
    expect(invalid.status).toBe(400);
    expect(await (await fetch(`${url}/search?q=rove`)).text()).toBe('you asked for rove');
  });

  it('renders a view from a directory given as a URL, and serves file routes given as a URL', async () => {
    const page = await fetch(`${url}/hello/%3Cb%3E`);
    expect(page.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(await page.text()).toBe('Hello &lt;b&gt;!');
    expect(await (await fetch(`${url}/pages/intro`)).text()).toBe('page intro');
  });
});
