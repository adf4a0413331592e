// How each runtime × framework is started: the command line of a direct
// child process running the real runtime binary.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { ROOT, resolveBin } from '../../dev/proc.ts';
import { bundleWorker, workerdConfig } from '../../dev/workerd.ts';
import type { FrameworkId, RuntimeId } from './config.ts';
import { dbEnv } from './db-run.ts';
import { V8_PERF_FLAGS } from './perf-record.ts';
import { redisEnv } from './redis-run.ts';
import type { Variant } from './scenarios.ts';

// rove-fs: the same app as a routes directory (file routes), to show what file routing costs.
// rove-baseline: Rove's bench app in the --baseline tree (the same entries, started from that tree).
const ENTRY_DIR: Record<FrameworkId, string> = {
  rove: 'examples/bench',
  'rove-baseline': 'examples/bench',
  'rove-fs': 'examples/bench-fs',
  hono: 'bench/hono',
  raw: 'bench/raw',
};
const ENTRY_FILE: Record<RuntimeId, string> = {
  node: 'node.ts',
  deno: 'deno.ts',
  bun: 'bun.ts',
  'deno-deploy': 'deploy.ts',
  workerd: 'worker.ts',
};

export function entryFile(runtime: RuntimeId, framework: FrameworkId): string {
  return `${ENTRY_DIR[framework]}/${ENTRY_FILE[runtime]}`;
}

export interface Launch {
  bin: string;
  args: string[];
  env: Record<string, string>;
  /** The tree the target runs from: its working directory (the repo, or --baseline's tree). */
  cwd: string;
}

export interface LaunchOptions {
  runtime: RuntimeId;
  framework: FrameworkId;
  variant: Variant;
  port: number;
  /** Scratch directory for bundles and generated configs. */
  workDir: string;
  /** Server processes (rove on node, deno, bun). */
  processes?: number;
  /** rove-baseline: the Rove tree (absolute) its entries, bundling and working directory come from. */
  baseline?: string;
  /** node, bun, deno and deno-deploy: write CPU profiles (.cpuprofile) into this directory on exit. */
  cpuProfDir?: string;
  /** V8 writes a perf map of its compiled code (--perf): node, deno, deno-deploy and workerd. */
  perfMap?: boolean;
}

const DENO_PERMISSIONS = ['--allow-net', '--allow-env', '--allow-read'];
// What examples/threads/README.md asks of pool users on Deno: the permission to lower thread
// priority (here), and no Maglev (v8Flags below; after pool threads had run, Deno 2.9's Maglev code
// slowed the main thread's /test-cpu loop: docs/design-notes.md).
const DENO_POOL_FLAGS = ['--allow-sys=setPriority'];
// The `cpu` variant (test-cpu): V8's Maglev tier off, so the loop runs in TurboFan code under every
// framework. With Maglev, the first function Maglev compiles with the loop inlined into it keeps it
// in Maglev code, about 3.5× slower, and which function that is depends on the code around the
// handler, not on the work (docs/benchmarks/methods.md). Node 20 has no Maglev by default; Bun is JSC.
const NO_MAGLEV = '--no-maglev';

/** V8 flags of a target: no Maglev where a variant asks it (above), V8's perf map under --perf. */
function v8Flags(o: LaunchOptions): string[] {
  const flags = o.variant === 'cpu' || (o.variant === 'workers' && o.runtime === 'deno') ? [NO_MAGLEV] : [];
  if (o.perfMap) flags.push(...V8_PERF_FLAGS);
  return flags;
}

/** Deno takes its V8 flags as one comma-separated list. */
function denoV8Flags(o: LaunchOptions): string[] {
  const flags = v8Flags(o);
  return flags.length > 0 ? [`--v8-flags=${flags.join(',')}`] : [];
}

/** Deno's CPU profile flags (Deno writes the .cpuprofile on a clean exit, so SIGTERM exits). */
function denoProfile(o: LaunchOptions): string[] {
  if (!o.cpuProfDir) return [];
  const dir = join(o.cpuProfDir, `${o.runtime}-${o.framework}-${o.variant}`);
  return ['--preload', './bench/lib/exit-on-sigterm-deno.ts', '--cpu-prof', `--cpu-prof-dir=${dir}`];
}

/** The tree a target's files come from: --baseline's for rove-baseline, this repo for the rest. */
export function treeOf(o: Pick<LaunchOptions, 'framework' | 'baseline'>): string {
  if (o.framework !== 'rove-baseline') return ROOT;
  if (!o.baseline) throw new Error('rove-baseline needs --baseline DIR');
  return o.baseline;
}

/** Builds the command line; throws a readable error when the entry does not exist yet. */
export function launchFor(o: LaunchOptions): Launch {
  const root = treeOf(o);
  // workerd's DB targets have their own entry: the driver needs nodejs_compat and a connection per request.
  const entry =
    o.variant === 'db' && o.runtime === 'workerd'
      ? entryFile(o.runtime, o.framework).replace(/worker\.ts$/, 'worker-db.ts')
      : entryFile(o.runtime, o.framework);
  if (!existsSync(join(root, entry))) throw new Error(`${join(root, entry)} does not exist`);
  const env: Record<string, string> = {
    PORT: String(o.port),
    HOST: '127.0.0.1',
    NODE_ENV: 'production',
    NO_COLOR: '1',
    DENO_NO_UPDATE_CHECK: '1',
  };
  if (o.variant === 'listener') env.BENCH_LISTENER = '1';
  if (o.variant === 'workers') env.BENCH_WORKERS = '1';
  if (o.variant === 'db') Object.assign(env, dbEnv());
  if (o.variant === 'redis') Object.assign(env, redisEnv());
  // --processes N: rove's own serve({ processes: processGroup(N) }) on node, deno and bun; `deno serve --parallel` on deno-deploy.
  const group = o.processes !== undefined && o.processes > 1 && (o.framework === 'rove' || o.framework === 'rove-baseline');
  if (group) env.BENCH_PROCESSES = String(o.processes);
  if (group && o.runtime === 'deno-deploy') env.DENO_JOBS = String(o.processes);
  switch (o.runtime) {
    case 'node': {
      // Every framework's node target runs as one JavaScript file that esbuild compiled at start, as
      // users deploy it (and as the workerd targets run): under tsx, its per-file transform (keepNames
      // and the rest) lands on whichever framework has more TypeScript of its own. tsx stays where
      // modules are loaded from disk at run time: the worker pool's task module, and rove-fs's
      // routes directory (its node entry scans and imports the .ts route files as it starts).
      const bundled = o.variant !== 'workers' && o.framework !== 'rove-fs';
      const args = bundled ? [] : ['--import', 'tsx'];
      if (o.perfMap) args.push(...V8_PERF_FLAGS);
      if (o.cpuProfDir) {
        // The profile is written on a clean exit only, so turn SIGTERM into process.exit().
        // One directory per target: node writes one file per thread (tsx's loader hooks run in their own).
        const dir = join(o.cpuProfDir, `node-${o.framework}-${o.variant}`);
        args.push('--import', './bench/lib/exit-on-sigterm.mjs', '--cpu-prof', '--cpu-prof-dir', dir);
      }
      let main = entry;
      if (bundled) {
        main = join(o.workDir, `node-${o.framework}-${o.variant}-${o.port}.mjs`);
        bundleNode(join(root, entry), main, root);
      }
      return { bin: resolveBin('node'), args: [...args, main], env, cwd: root };
    }
    case 'deno':
      return {
        bin: resolveBin('deno'),
        // --allow-run: the primary of a process group starts its children.
        args: [
          'run',
          ...DENO_PERMISSIONS,
          ...(group ? ['--allow-run'] : []),
          ...(o.variant === 'workers' ? DENO_POOL_FLAGS : []),
          ...denoV8Flags(o),
          ...denoProfile(o),
          entry,
        ],
        env,
        cwd: root,
      };
    case 'deno-deploy':
      return {
        bin: resolveBin('deno'),
        args: [
          'serve',
          ...DENO_PERMISSIONS,
          ...(group ? ['--parallel'] : []),
          ...denoV8Flags(o),
          ...denoProfile(o),
          '--host',
          '127.0.0.1',
          '--port',
          String(o.port),
          entry,
        ],
        env,
        cwd: root,
      };
    case 'bun': {
      const args: string[] = [];
      if (o.cpuProfDir) {
        const dir = join(o.cpuProfDir, `bun-${o.framework}-${o.variant}`);
        args.push('--preload', './bench/lib/exit-on-sigterm.mjs', '--cpu-prof', `--cpu-prof-dir=${dir}`);
      }
      return { bin: resolveBin('bun'), args: [...args, entry], env, cwd: root };
    }
    case 'workerd': {
      const dir = join(o.workDir, `workerd-${o.framework}-${o.variant}-${o.port}`);
      mkdirSync(dir, { recursive: true });
      // Workers have no process env at module scope: the variant is baked into the bundle.
      bundleWorker(
        join(root, entry),
        join(dir, 'worker.js'),
        {
          __BENCH_LISTENER__: o.variant === 'listener' ? '"1"' : '""',
          __BENCH_WORKERS__: o.variant === 'workers' ? '"1"' : '""',
        },
        root,
      );
      const db = o.variant === 'db' ? { compatibilityFlags: ['nodejs_compat'], bindings: dbEnv(), allowLocalNetwork: true } : {};
      const flags = v8Flags(o);
      const v8 = flags.length > 0 ? { v8Flags: flags } : {};
      writeFileSync(join(dir, 'config.capnp'), workerdConfig({ port: o.port, module: 'worker.js', ...db, ...v8 }));
      return { bin: resolveBin('workerd'), args: ['serve', join(dir, 'config.capnp')], env, cwd: root };
    }
  }
}

/**
 * Compiles a node entry and everything it imports (the framework, its dependencies) into one ES
 * module, as a production build would: no minifying, so profiles keep the function names.
 */
function bundleNode(entry: string, outfile: string, cwd = ROOT): void {
  const args = [
    entry,
    '--bundle',
    '--format=esm',
    '--platform=node',
    '--target=node20',
    '--log-level=warning',
    // A CommonJS dependency inside an ES module bundle still calls require() for node's built-ins.
    "--banner:js=import { createRequire as __bundleRequire } from 'node:module'; const require = __bundleRequire(import.meta.url);",
    `--outfile=${outfile}`,
  ];
  try {
    execFileSync(resolveBin('esbuild'), args, { cwd, stdio: ['ignore', 'pipe', 'pipe'] });
  } catch (err) {
    const e = err as { stderr?: Buffer; message: string };
    throw new Error(`esbuild failed for ${entry}: ${e.stderr?.toString().trim() || e.message}`);
  }
}
