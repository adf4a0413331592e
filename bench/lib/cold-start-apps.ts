// What npm run bench:cold starts: each runtime × app × mode, its entry module, the request
// timed, and the command line of a fresh server process (the runtime binary itself, so its
// pid is the process whose CPU is read). Bundled modes build one minified file per runtime.
import { existsSync, mkdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { gzipSync } from 'node:zlib';
import { type BuildOptions, build } from 'esbuild';
import { ROOT, resolveBin } from '../../dev/proc.ts';
import { workerdConfig } from '../../dev/workerd.ts';
import { BUILD_OPTIONS, GZIP_LEVEL } from './bundle-size.ts';
import type { ColdStartApp, ColdStartEntry } from './cold-start-result.ts';

export type ColdRuntime = ColdStartEntry['runtime'];
export type ColdMode = ColdStartEntry['mode'];

export const COLD_RUNTIMES: readonly ColdRuntime[] = ['node', 'deno', 'bun', 'deno-deploy', 'workerd'];
export const COLD_APPS: readonly ColdStartApp[] = ['two-route-rove', 'two-route-hono', 'two-route-bare', 'hello', 'notes'];
export const COLD_MODES: readonly ColdMode[] = ['bundled', 'source'];

const APP_DIR: Record<ColdStartApp, string> = {
  'two-route-rove': 'bench/cold/rove',
  'two-route-hono': 'bench/cold/hono',
  'two-route-bare': 'bench/cold/bare',
  hello: 'examples/hello',
  notes: 'examples/notes',
};
const RUNTIME_FILE: Record<ColdRuntime, string> = { node: 'node.ts', deno: 'deno.ts', bun: 'bun.ts', 'deno-deploy': 'deploy.ts', workerd: 'worker.ts' };

// Cheap real routes: the two-route apps' and hello's parameter route; notes' OpenAPI document
// (JSON through the app's whole middleware stack, and no session store: on workerd the KV
// binding is absent, and a session route would need it).
const REQUEST_PATH: Record<ColdStartApp, string> = {
  'two-route-rove': '/users/7',
  'two-route-hono': '/users/7',
  'two-route-bare': '/users/7',
  hello: '/users/7',
  notes: '/api/openapi.json',
};

export interface ColdPlan {
  runtime: ColdRuntime;
  app: ColdStartApp;
  mode: ColdMode;
  entry: string;
  path: string;
  /** Why the combination is not measured (it makes no sense), or null. */
  skip: string | null;
}

export function planEntries(runtimes: readonly ColdRuntime[], apps: readonly ColdStartApp[], modes: readonly ColdMode[]): ColdPlan[] {
  const out: ColdPlan[] = [];
  for (const runtime of runtimes)
    for (const app of apps)
      for (const mode of modes) {
        const skip =
          runtime === 'workerd' && mode === 'source' ? 'workerd runs only bundled modules (wrangler bundles before it uploads); see the bundled entry' : null;
        out.push({ runtime, app, mode, entry: `${APP_DIR[app]}/${RUNTIME_FILE[runtime]}`, path: REQUEST_PATH[app], skip });
      }
  return out;
}

// How users bundle for each runtime, minified. node: the npm package's default (dist) build,
// CommonJS dependencies still calling require() for built-ins. deno / deno-deploy: the package's
// `deno` condition, node:* left to Deno. bun: its `bun` condition. workerd: a Workers build
// (bench/lib/bundle-size.ts, what npm run bench:size measures).
const REQUIRE_BANNER = "import { createRequire as __bundleRequire } from 'node:module'; const require = __bundleRequire(import.meta.url);";
function buildOptions(runtime: ColdRuntime): BuildOptions {
  const common = { bundle: true, minify: true, format: 'esm' } as const;
  switch (runtime) {
    case 'node':
      return { ...common, platform: 'node', target: 'node20', banner: { js: REQUIRE_BANNER } };
    case 'deno':
    case 'deno-deploy':
      return {
        ...common,
        platform: 'neutral',
        target: 'es2022',
        conditions: ['deno', 'node', 'import'],
        mainFields: ['module', 'main'],
        external: ['node:*', 'npm:*', 'jsr:*'],
      };
    case 'bun':
      return { ...common, platform: 'node', target: 'esnext', conditions: ['bun'], external: ['bun', 'bun:*'], banner: { js: REQUIRE_BANNER } };
    case 'workerd':
      return { ...BUILD_OPTIONS, conditions: [...BUILD_OPTIONS.conditions], mainFields: [...BUILD_OPTIONS.mainFields], external: ['node:*', 'cloudflare:*'] };
  }
}

export function bundleCommand(runtime: ColdRuntime): string {
  const o = buildOptions(runtime);
  const parts = ['esbuild ENTRY --bundle --minify --format=esm', `--platform=${o.platform}`, `--target=${o.target}`];
  if (o.conditions) parts.push(`--conditions=${o.conditions.join(',')}`);
  if (o.mainFields) parts.push(`--main-fields=${o.mainFields.join(',')}`);
  for (const e of o.external ?? []) parts.push(`--external:${e}`);
  if (o.banner) parts.push('--banner:js=<createRequire>');
  return parts.join(' ');
}

export interface Prepared {
  /** The module the runtime starts: the bundle, or the TypeScript entry. */
  main: string;
  /** deno / deno-deploy source: the import map that resolves `rove` as the npm package does. */
  importMap?: string;
  bundleBytes: number | null;
  bundleGzipBytes: number | null;
  /** workerd: the directory holding worker.js (and the config, written per start). */
  dir: string | null;
}

/**
 * A bundle ships beside the files the app reads at startup (examples/notes' public/, found from
 * import.meta.url): link the entry's public/ into the bundle's directory, when it has one.
 */
export function linkPublic(entry: string, dir: string): void {
  const assets = join(ROOT, dirname(entry), 'public');
  if (existsSync(assets) && !existsSync(join(dir, 'public'))) symlinkSync(assets, join(dir, 'public'));
}

/** Builds the bundle of a bundled entry (in workDir); a source entry runs as it is. */
export async function prepare(p: ColdPlan, workDir: string): Promise<Prepared> {
  if (p.mode === 'source') {
    const deno = p.runtime === 'deno' || p.runtime === 'deno-deploy';
    return { main: p.entry, bundleBytes: null, bundleGzipBytes: null, dir: null, ...(deno ? { importMap: npmImportMap(workDir) } : {}) };
  }
  const dir = join(workDir, `${p.runtime}-${p.app}`);
  mkdirSync(dir, { recursive: true });
  const out = await build({
    ...buildOptions(p.runtime),
    absWorkingDir: ROOT,
    entryPoints: [join(ROOT, p.entry)],
    outfile: join(dir, p.runtime === 'workerd' ? 'worker.js' : 'server.mjs'),
    write: false,
    logLevel: 'silent',
  });
  const file = out.outputFiles.find((f) => f.path.endsWith('.js') || f.path.endsWith('.mjs'));
  if (!file) throw new Error(`esbuild produced no JavaScript for ${p.entry}`);
  writeFileSync(file.path, file.contents);
  // workerd serves the app's files through assets instead.
  if (p.runtime !== 'workerd') linkPublic(p.entry, dir);
  return {
    main: file.path,
    bundleBytes: file.contents.byteLength,
    bundleGzipBytes: gzipSync(file.contents, { level: GZIP_LEVEL }).byteLength,
    dir: p.runtime === 'workerd' ? dir : null,
  };
}

/**
 * Source mode runs the app's TypeScript entry with each framework resolved as `npm install` gives
 * it, Rove and Hono alike: Hono's published JavaScript, and Rove's package exports (on Deno the
 * `deno` condition, the JavaScript in dist/; on Node the default, the same; on Bun the `bun`
 * condition, the TypeScript sources). In this repo deno.json maps `rove` to the TypeScript sources
 * (what JSR serves), so Deno gets an import map written from package.json's `deno` conditions.
 */
function npmImportMap(workDir: string): string {
  const file = join(workDir, 'npm-import-map.json');
  if (existsSync(file)) return file;
  const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { exports: Record<string, string | Record<string, string>> };
  const imports: Record<string, string> = {};
  for (const [subpath, target] of Object.entries(pkg.exports)) {
    const deno = typeof target === 'string' ? target : target.deno;
    if (typeof deno === 'string') imports[`rove${subpath.slice(1)}`] = pathToFileURL(join(ROOT, deno)).href;
  }
  mkdirSync(workDir, { recursive: true });
  writeFileSync(file, JSON.stringify({ imports }));
  return file;
}

export interface ColdLaunch {
  bin: string;
  args: string[];
  env: Record<string, string>;
}

const importMapArgs = (prep: Prepared): string[] => (prep.importMap ? ['--import-map', prep.importMap] : []);

// The permissions the repo's own deno scripts grant (package.json start:deno, notes:deploy).
const DENO_PERMISSIONS = ['--allow-net', '--allow-env', '--allow-read'];

/**
 * The command line of one start on `port`; writes workerd's config for it. `trace`: workerd
 * writes a Perfetto trace of its own slices there (bench/lib/cold-start-trace.ts).
 */
export function launch(p: ColdPlan, prep: Prepared, port: number, trace?: string): ColdLaunch {
  const env = { PORT: String(port), HOST: '127.0.0.1', NODE_ENV: 'production', NO_COLOR: '1', DENO_NO_UPDATE_CHECK: '1' };
  switch (p.runtime) {
    case 'node':
      // Source: TypeScript on Node 20 through tsx's loader, registered with --import in the node
      // process itself (its hooks thread included); the frameworks resolve as installed (dist/).
      return { bin: resolveBin('node'), args: p.mode === 'source' ? ['--import', 'tsx', prep.main] : [prep.main], env };
    case 'deno':
      return { bin: resolveBin('deno'), args: ['run', ...DENO_PERMISSIONS, ...importMapArgs(prep), prep.main], env };
    case 'deno-deploy':
      return {
        bin: resolveBin('deno'),
        args: ['serve', ...DENO_PERMISSIONS, ...importMapArgs(prep), '--host', '127.0.0.1', '--port', String(port), prep.main],
        env,
      };
    case 'bun':
      return { bin: resolveBin('bun'), args: [prep.main], env };
    case 'workerd': {
      const config = join(prep.dir!, 'config.capnp');
      writeFileSync(config, workerdConfig({ port, module: 'worker.js' }));
      return { bin: resolveBin('workerd'), args: ['serve', config, ...(trace ? [`--perfetto-trace=${trace}=workerd`] : [])], env };
    }
  }
}
