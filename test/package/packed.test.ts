// The package as users get it: `npm pack` (the files list the package really ships), a new app
// written by create-rove into a temp directory outside the repo, the tarball installed there from
// the npm cache, then the app run from the installed package on every runtime, its own tests,
// `tsc --noEmit` against the installed types, and `wrangler deploy --dry-run` served by workerd.
// Runtimes (node, deno, bun, workerd) are binaries; every module resolves inside the temp app.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Child, freePort, ROOT, resolveBin, startChild, stopChild } from '../../bench/lib/proc.ts';
import { workerdConfig } from '../../bench/lib/workerd.ts';
import { packageExports } from './exports.ts';

let work: string;
let app: string;
let tarball: string;
let packed: { size: number; unpackedSize: number; files: { path: string }[] };

function run(bin: string, args: string[], cwd: string, env: Record<string, string> = {}): string {
  try {
    return execFileSync(bin, args, { cwd, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, NO_COLOR: '1', ...env } });
  } catch (error) {
    const e = error as { stdout?: string; stderr?: string; message: string };
    throw new Error(`${bin} ${args.join(' ')} failed in ${cwd}:\n${e.stderr ?? ''}\n${e.stdout ?? ''}`);
  }
}

beforeAll(() => {
  // Outside the repo: nothing in it may resolve to the repo's node_modules or sources.
  work = mkdtempSync(join(realpathSync(tmpdir()), 'rove-packed-'));
  expect(relative(ROOT, work).startsWith('..')).toBe(true);
  // `npm pack` runs `prepare` (the build), as publishing does.
  packed = JSON.parse(run('npm', ['pack', '--json', '--pack-destination', work], ROOT))[0];
  tarball = join(work, (packed as unknown as { filename: string }).filename);
  app = join(work, 'my-app');
  run(process.execPath, [join(ROOT, 'create-rove/index.js'), app, '--yes', '--rove', tarball], work);
  // From the npm cache where it can (the registry may be unreachable); the app's tools are the repo's pinned versions.
  run('npm', ['install', '--prefer-offline', '--no-audit', '--no-fund', '--loglevel=error'], app);
  // Optional peers (rove/otel needs @opentelemetry/api), as a user of those entries installs them.
  const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8'));
  const peers = Object.keys(pkg.peerDependencies ?? {}).map((name) => `${name}@${pkg.devDependencies[name] ?? pkg.peerDependencies[name]}`);
  if (peers.length > 0) run('npm', ['install', '--prefer-offline', '--no-audit', '--no-fund', '--loglevel=error', ...peers], app);
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
    expect(out).toMatch(/Tests\s+4 passed/);
  }, 120_000);

  it('type-checks with tsc --noEmit against the installed types', () => {
    run(process.execPath, [join(app, 'node_modules/typescript/bin/tsc'), '--noEmit', '-p', 'tsconfig.json'], app);
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
    const deadline = Date.now() + 30_000;
    for (;;) {
      if (child.exited) throw new Error(`${runtime} exited: ${child.output()}`);
      try {
        if ((await fetch(`${url}/`, { signal: AbortSignal.timeout(2000) })).ok) break;
      } catch {
        // not listening yet
      }
      if (Date.now() > deadline) throw new Error(`${runtime} did not start: ${child.output()}`);
      await new Promise((r) => setTimeout(r, 100));
    }
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
