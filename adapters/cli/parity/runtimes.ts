// The five runtimes `rove parity` starts an app on, each the way the app's own npm scripts do
// (create-rove's start:* scripts), on a free loopback port given as PORT/HOST or as flags.
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { type Child, findBin, freePort, startChild, stopChild } from './proc.ts';

export const RUNTIMES = ['node', 'deno', 'bun', 'deploy', 'workers'] as const;
export type Runtime = (typeof RUNTIMES)[number];

/** What runs each runtime: an entry module, or for Workers the wrangler.toml (its `main` is the entry). */
export const DEFAULT_ENTRIES: Record<Runtime, string> = {
  node: 'src/node.ts',
  deno: 'src/deno.ts',
  bun: 'src/bun.ts',
  deploy: 'src/deploy.ts',
  workers: 'wrangler.toml',
};

export interface RunOptions {
  /** The app's folder: servers start here, binaries are found from here. */
  cwd: string;
  entries: Record<Runtime, string>;
  /** Environment for Node, Deno and Bun (Workers read wrangler.toml's [vars]). */
  env: Record<string, string>;
  /** Extra arguments for node before the entry (default `--import tsx`). */
  nodeArgs?: string[];
  /** The path polled until the server answers anything. */
  readyPath?: string;
  timeoutMs?: number;
}

export interface Running {
  runtime: Runtime;
  url: string;
  child: Child;
  stop(): Promise<void>;
}

const DENO = ['--allow-net', '--allow-env', '--allow-read', '--unstable-cron'];

/** Scratch directories of servers still running, for a last-resort cleanup on Ctrl-C. */
const scratchDirs = new Set<string>();

/** Remove every scratch directory left (after the servers were killed). */
export function removeScratchNow(): void {
  for (const dir of scratchDirs) rmSync(dir, { recursive: true, force: true });
  scratchDirs.clear();
}

/** `[vars]` of a wrangler.toml (string values): a worker's bindings, given to the other runtimes as env. */
export function wranglerVars(toml: string): Record<string, string> {
  const section = /^\[vars\]\s*$([\s\S]*?)(?=^\s*\[|(?![\s\S]))/m.exec(toml)?.[1] ?? '';
  const vars: Record<string, string> = {};
  for (const m of section.matchAll(/^\s*([A-Za-z_][\w]*)\s*=\s*"((?:[^"\\]|\\.)*)"\s*(?:#.*)?$/gm)) vars[m[1]] = JSON.parse(`"${m[2]}"`);
  return vars;
}

function need(name: string, cwd: string): string {
  const bin = findBin(name, cwd);
  if (bin === undefined) throw new Error(`${name} is not installed: npm install --save-dev ${name}`);
  return bin;
}

async function command(runtime: Runtime, o: RunOptions, port: number, scratch: string): Promise<{ bin: string; args: string[]; cwd: string }> {
  const entry = o.entries[runtime];
  const cwd = o.cwd;
  if (!existsSync(resolve(cwd, entry))) throw new Error(`no ${entry} in ${cwd}`);
  switch (runtime) {
    case 'node':
      return { bin: process.execPath, args: [...(o.nodeArgs ?? ['--import', 'tsx']), entry], cwd };
    case 'deno':
      return { bin: need('deno', cwd), args: ['run', ...DENO, entry], cwd };
    case 'bun':
      return { bin: need('bun', cwd), args: [entry], cwd };
    case 'deploy':
      return { bin: need('deno', cwd), args: ['serve', ...DENO, '--host', '127.0.0.1', '--port', String(port), entry], cwd };
    case 'workers': {
      // wrangler dev, as `npm run start:workers` and the platform read the whole wrangler.toml
      // (Static Assets, KV, compatibility flags, [vars]); state goes to a scratch dir, fresh each run.
      const config = resolve(cwd, entry);
      const inspector = await freePort();
      const args = ['dev', '-c', config, '--ip', '127.0.0.1', '--port', String(port), '--inspector-port', String(inspector)];
      args.push('--persist-to', scratch, '--show-interactive-dev-session=false', '--log-level', 'warn');
      return { bin: need('wrangler', cwd), args, cwd: dirname(config) };
    }
  }
}

/** Start the app on `runtime` and wait until it answers (any status). */
export async function start(runtime: Runtime, o: RunOptions): Promise<Running> {
  const port = await freePort();
  const scratch = mkdtempSync(join(tmpdir(), `rove-parity-${runtime}-`));
  scratchDirs.add(scratch);
  let cmd: Awaited<ReturnType<typeof command>>;
  try {
    cmd = await command(runtime, o, port, scratch);
  } catch (error) {
    rmSync(scratch, { recursive: true, force: true });
    scratchDirs.delete(scratch);
    throw error;
  }
  const env = {
    ...o.env,
    PORT: String(port),
    HOST: '127.0.0.1',
    NO_COLOR: '1',
    DENO_NO_UPDATE_CHECK: '1',
    WRANGLER_SEND_METRICS: 'false',
  };
  const child = startChild(cmd.bin, cmd.args, env, cmd.cwd);
  const url = `http://127.0.0.1:${port}`;
  const stop = async () => {
    await stopChild(child);
    rmSync(scratch, { recursive: true, force: true });
    scratchDirs.delete(scratch);
  };
  const deadline = Date.now() + (o.timeoutMs ?? 30_000);
  for (;;) {
    if (child.exited) {
      await stop();
      throw new Error(`${runtime} exited before it was ready (code ${child.exitCode}):\n${child.output()}`);
    }
    try {
      const res = await fetch(url + (o.readyPath ?? '/'), { signal: AbortSignal.timeout(2000), redirect: 'manual' });
      await res.arrayBuffer();
      break;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) {
      await stop();
      throw new Error(`${runtime} did not answer in ${Math.round((o.timeoutMs ?? 30_000) / 1000)} s:\n${child.output()}`);
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  return { runtime, url, child, stop };
}

/** wrangler.toml's text, or '' when there is none. */
export function readToml(file: string): string {
  return existsSync(file) ? readFileSync(file, 'utf8') : '';
}
