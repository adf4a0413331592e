// Starts an example app on one runtime, on a free loopback port, as a direct
// child process of the runtime binary, and stops it by pid.
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type Child, freePort, ROOT, resolveBin, startChild, stopChild } from '../../dev/proc.ts';
import { bundleWorker, workerdConfig } from '../../dev/workerd.ts';
import { node24OrSkip, withNode24 } from './node24.ts';

export const RUNTIMES = ['node', 'deno', 'bun', 'deno-deploy', 'workerd'] as const;
/** One of the five runtimes, or `node24`: the Node entry on Node 24 beside the machine's Node. */
export type Runtime = (typeof RUNTIMES)[number] | 'node24';

/** The conformance suite's runtimes: the five, and Node 24 where it is installed (scripts/install-node24.sh). */
export const CONFORMANCE_RUNTIMES: readonly Runtime[] = withNode24(RUNTIMES);

/** The runtimes whose adapter owns the server (`serve()`): Node (both), Deno and Bun. */
export const SERVING_RUNTIMES: readonly Runtime[] = CONFORMANCE_RUNTIMES.filter((r) => r === 'node' || r === 'node24' || r === 'deno' || r === 'bun');

/** Whether a runtime is Node, of either version. */
export const isNode = (runtime: Runtime): boolean => runtime === 'node' || runtime === 'node24';

export interface Running {
  runtime: Runtime;
  url: string;
  child: Child;
  stop(): Promise<void>;
}

const DENO = ['--allow-net', '--allow-env', '--allow-read', '--allow-write', '--unstable-cron'];

/** `[vars]` of wrangler.toml: the bindings a deployed worker gets. */
export function wranglerVars(): Record<string, string> {
  const toml = readFileSync(join(ROOT, 'wrangler.toml'), 'utf8');
  const section = /^\[vars\]\s*$([\s\S]*?)(?=^\[|(?![\s\S]))/m.exec(toml)?.[1] ?? '';
  const vars: Record<string, string> = {};
  for (const m of section.matchAll(/^\s*([A-Za-z_][\w]*)\s*=\s*"((?:[^"\\]|\\.)*)"\s*$/gm)) vars[m[1]] = JSON.parse(`"${m[2]}"`);
  return vars;
}

/**
 * Whether `dir` has a wrangler.toml with `[assets]` or KV namespaces, which bare workerd cannot
 * give, or asks for Miniflare outright (`[rove_tests] miniflare = true`: a Cache API that keeps).
 */
function needsMiniflare(dir: string): boolean {
  const file = join(ROOT, dir, 'wrangler.toml');
  return existsSync(file) && /^\s*(?:\[assets\]|\[\[kv_namespaces\]\]|miniflare\s*=\s*true)/m.test(readFileSync(file, 'utf8'));
}

function textModules(dir: string): Record<string, string> {
  const file = join(ROOT, dir, 'text-modules.json');
  return existsSync(file) ? JSON.parse(readFileSync(file, 'utf8')) : {};
}

function command(runtime: Runtime, dir: string, port: number, scratch: string, bindings: Record<string, string>): { bin: string; args: string[] } {
  switch (runtime) {
    case 'node':
    case 'node24':
      return { bin: runtime === 'node' ? resolveBin('node') : node24OrSkip()!, args: ['--conditions=source', '--import', 'tsx', `${dir}/node.ts`] };
    case 'deno':
      return { bin: resolveBin('deno'), args: ['run', ...DENO, `${dir}/deno.ts`] };
    case 'bun':
      return { bin: resolveBin('bun'), args: [`${dir}/bun.ts`] };
    case 'deno-deploy':
      return { bin: resolveBin('deno'), args: ['serve', ...DENO, '--host', '127.0.0.1', '--port', String(port), `${dir}/deploy.ts`] };
    case 'workerd': {
      // An example whose wrangler.toml needs platform services (assets, KV) runs under Miniflare: see miniflare.ts.
      if (needsMiniflare(dir)) return { bin: resolveBin('node'), args: ['--import', 'tsx', 'test/conformance/miniflare.ts', dir, JSON.stringify(bindings)] };
      // Text modules a worker imports (wrangler's `Text` rule), named in text-modules.json: { name: file from the root }.
      const texts = textModules(dir);
      for (const [name, file] of Object.entries(texts)) copyFileSync(join(ROOT, file), join(scratch, name));
      bundleWorker(
        join(ROOT, dir, 'worker.ts'),
        join(scratch, 'worker.js'),
        {},
        ROOT,
        Object.keys(texts).map((name) => `./${name}`),
      );
      const config = workerdConfig({
        textModules: Object.keys(texts),
        port,
        module: 'worker.js',
        compatibilityFlags: ['nodejs_compat'],
        bindings: { ...wranglerVars(), ...bindings },
        // A worker given a database or a trace collector on this machine must reach loopback.
        allowLocalNetwork: 'DATABASE_URL' in bindings || 'OTEL_EXPORTER_OTLP_ENDPOINT' in bindings,
      });
      writeFileSync(join(scratch, 'config.capnp'), config);
      return { bin: resolveBin('workerd'), args: ['serve', join(scratch, 'config.capnp')] };
    }
  }
}

/**
 * Start `dir`'s entry for `runtime` and wait until `readyPath` answers 200.
 * `env` is the process environment; a worker sees wrangler.toml's `[vars]` plus `bindings` instead.
 */
export async function start(
  runtime: Runtime,
  dir = 'examples/hello',
  readyPath = '/',
  env: Record<string, string> = {},
  bindings: Record<string, string> = {},
): Promise<Running> {
  const port = await freePort();
  const base = join(tmpdir(), 'rove-conformance');
  mkdirSync(base, { recursive: true });
  const scratch = mkdtempSync(join(base, `${runtime}-`));
  const { bin, args } = command(runtime, dir, port, scratch, bindings);
  const child = startChild(bin, args, { PORT: String(port), HOST: '127.0.0.1', NO_COLOR: '1', DENO_NO_UPDATE_CHECK: '1', ...env });
  const url = `http://127.0.0.1:${port}`;
  const stop = async () => {
    await stopChild(child);
    rmSync(scratch, { recursive: true, force: true });
  };
  const deadline = Date.now() + 30_000;
  for (;;) {
    if (child.exited) {
      await stop();
      throw new Error(`${runtime} exited before it was ready (code ${child.exitCode}, signal ${child.exitSignal}):\n${child.output()}`);
    }
    try {
      const res = await fetch(url + readyPath, { signal: AbortSignal.timeout(2000) });
      await res.arrayBuffer();
      if (res.status === 200) break;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) {
      await stop();
      throw new Error(`${runtime} did not become ready in 30 s:\n${child.output()}`);
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  return { runtime, url, child, stop };
}
