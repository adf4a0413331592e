/**
 * The package's entries: each subpath users import, and the file that implements it on each
 * runtime. package.json `exports` and deno.json `exports` and `imports` are generated from this
 * table (`npm run exports`, scripts/write-exports.ts); test/exports-table.test.ts fails when
 * either file differs from it, so edit the table, not the files.
 */

export interface ExportEntry {
  /** `.` or `./node`: what follows the package name in an import. */
  subpath: string;
  /** The TypeScript source for Node (built into dist/), and for every runtime without a file of its own below. */
  source: string;
  /** Deno's own file (the `deno` condition, built; deno.json). */
  deno?: string;
  /** Bun's own file (the `bun` condition). */
  bun?: string;
  /** The file for Workers bundles (the `workerd` and `worker` conditions). */
  worker?: string;
  /** The file for browser bundles (the `browser` condition). */
  browser?: string;
}

export const EXPORTS: readonly ExportEntry[] = [
  { subpath: '.', source: 'src/index.ts' },
  { subpath: './node', source: 'adapters/node/index.ts' },
  { subpath: './node/processes', source: 'adapters/node/processes.ts' },
  { subpath: './node/websocket', source: 'adapters/node/websocket.ts' },
  { subpath: './node/threads', source: 'adapters/node/threads.ts' },
  { subpath: './deno', source: 'adapters/deno/index.ts' },
  { subpath: './deno/processes', source: 'adapters/deno/processes.ts' },
  { subpath: './bun', source: 'adapters/bun/index.ts' },
  { subpath: './bun/processes', source: 'adapters/bun/processes.ts' },
  { subpath: './deno-deploy', source: 'adapters/deno-deploy/index.ts' },
  { subpath: './cloudflare', source: 'adapters/cloudflare/index.ts' },
  { subpath: './otel', source: 'src/otel/index.ts' },
  { subpath: './testing', source: 'src/testing/index.ts' },
  { subpath: './tasks', source: 'src/tasks/index.ts' },
  { subpath: './uploads', source: 'src/uploads/index.ts' },
  { subpath: './trailing-slash', source: 'src/routing/trailing-slash.ts' },
  { subpath: './trust-proxy', source: 'src/http/trust-proxy.ts' },
  { subpath: './error-page', source: 'src/core/error-page.ts' },
  { subpath: './cookie', source: 'src/http/cookie.ts' },
  { subpath: './threads', source: 'src/threads/index.ts' },
  { subpath: './sse', source: 'src/sse/index.ts' },
  { subpath: './websocket', source: 'src/websocket/index.ts' },
  // Deno reads views and route files with its own file API: a node: module would start its Node layer.
  { subpath: './views', source: 'adapters/shared/views-fs.ts', deno: 'adapters/deno/views.ts', worker: 'src/views/index.ts', browser: 'src/views/index.ts' },
  {
    subpath: './static',
    source: 'adapters/node/static.ts',
    deno: 'adapters/deno/static.ts',
    bun: 'adapters/bun/static.ts',
    worker: 'adapters/cloudflare/static.ts',
  },
  { subpath: './etag', source: 'src/middleware/etag/index.ts' },
  { subpath: './compress', source: 'src/middleware/compress/index.ts' },
  { subpath: './secure-headers', source: 'src/middleware/secure-headers/index.ts' },
  { subpath: './request-id', source: 'src/middleware/request-id/index.ts' },
  { subpath: './logger', source: 'src/middleware/logger/index.ts' },
  {
    subpath: './fs-routes',
    source: 'adapters/shared/fs-routes.ts',
    deno: 'adapters/deno/fs-routes.ts',
    worker: 'src/fs-routes/index.ts',
    browser: 'src/fs-routes/index.ts',
  },
  { subpath: './session', source: 'src/middleware/session/index.ts' },
  { subpath: './csrf', source: 'src/middleware/csrf/index.ts' },
  { subpath: './cors', source: 'src/middleware/cors/index.ts' },
  { subpath: './auth', source: 'src/middleware/auth/index.ts' },
  { subpath: './ip', source: 'src/middleware/ip/index.ts' },
  { subpath: './contract', source: 'src/contract/index.ts' },
  { subpath: './rate-limit', source: 'src/middleware/rate-limit/index.ts' },
  { subpath: './timeout', source: 'src/middleware/timeout/index.ts' },
  { subpath: './cache', source: 'src/middleware/cache/index.ts' },
];

const src = (file: string) => `./${file}`;
const built = (file: string) => `./dist/${file.replace(/\.ts$/, '.js')}`;
const types = (file: string) => `./dist/${file.replace(/\.ts$/, '.d.ts')}`;

/**
 * One entry's package.json conditions. Bun, workerd and bundlers for Workers and browsers take the
 * TypeScript sources; Node and Deno take the build in dist/ (Deno strips no types under
 * node_modules). A runtime's own file comes before `source`, so it wins even where `source` is set.
 */
export function conditionsOf(e: ExportEntry): Record<string, string | Record<string, string>> {
  if (e.worker || e.deno || e.bun || e.browser) return perRuntime(e);
  return {
    types: types(e.source),
    source: src(e.source),
    bun: src(e.source),
    deno: built(e.source),
    workerd: src(e.source),
    worker: src(e.source),
    default: built(e.source),
  };
}

/**
 * An entry whose files differ by runtime: each runtime's condition carries the types of its own
 * file, ahead of the bare `types`, so TypeScript shows each runtime what that runtime exports. The
 * bare `types` (a project that names no runtime) are those of the smallest entry, the Workers one
 * where there is one: what every runtime has. Node's own (`fileSource`, `scanRoutes`) come with the
 * `node` condition, which `moduleResolution: "nodenext"` sets; `customConditions` sets the others.
 */
function perRuntime(e: ExportEntry): Record<string, string | Record<string, string>> {
  const out: Record<string, string | Record<string, string>> = {};
  if (e.worker) {
    out.workerd = { types: types(e.worker), default: src(e.worker) };
    out.worker = { types: types(e.worker), default: src(e.worker) };
  }
  if (e.browser) out.browser = { types: types(e.browser), default: src(e.browser) };
  out.bun = { types: types(e.bun ?? e.source), default: src(e.bun ?? e.source) };
  out.deno = { types: types(e.deno ?? e.source), default: built(e.deno ?? e.source) };
  out.source = src(e.source);
  out.node = { types: types(e.source), default: built(e.source) };
  out.types = types(e.worker ?? e.source);
  out.default = built(e.source);
  return out;
}

/** package.json `exports`. */
export function packageExports(table: readonly ExportEntry[] = EXPORTS): Record<string, Record<string, string | Record<string, string>>> {
  return Object.fromEntries(table.map((e) => [e.subpath, conditionsOf(e)]));
}

/** deno.json `exports`: each entry at the TypeScript source Deno runs (what JSR publishes). */
export function denoExports(table: readonly ExportEntry[] = EXPORTS): Record<string, string> {
  return Object.fromEntries(table.map((e) => [e.subpath, src(e.deno ?? e.source)]));
}

/** deno.json `imports`: `rove/…` for Deno code inside this repository, at the same files. */
export function denoImports(name: string, table: readonly ExportEntry[] = EXPORTS): Record<string, string> {
  return Object.fromEntries(table.map((e) => [e.subpath === '.' ? name : `${name}/${e.subpath.slice(2)}`, src(e.deno ?? e.source)]));
}
