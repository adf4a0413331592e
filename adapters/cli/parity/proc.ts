// Child processes for `rove parity`, the conformance suite's way (test/conformance/servers.ts,
// dev/proc.ts) as shipped code: each server is a direct child in its own process group,
// on a free loopback port, stopped by pid (SIGTERM to the group, SIGKILL after a grace).
import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync, realpathSync } from 'node:fs';
import { createServer } from 'node:net';
import { dirname, join } from 'node:path';

/**
 * The binary `name` from the app's node_modules/.bin (looking up from `dir`, as npm scripts do),
 * resolved past the npm shim so that the pid is the server; `undefined` when it is not installed.
 */
export function findBin(name: string, dir: string): string | undefined {
  if (name === 'node') return process.execPath;
  for (let d = dir; ; d = dirname(d)) {
    const file = join(d, 'node_modules/.bin', name);
    if (existsSync(file)) return realpathSync(file);
    if (dirname(d) === d) return undefined;
  }
}

/** A port nobody listens on at 127.0.0.1 now. */
export function freePort(): Promise<number> {
  return new Promise((ok, fail) => {
    const srv = createServer();
    srv.unref();
    srv.on('error', fail);
    srv.listen(0, '127.0.0.1', () => {
      const addr = srv.address();
      srv.close(() => (addr && typeof addr === 'object' ? ok(addr.port) : fail(new Error('no port'))));
    });
  });
}

export interface Child {
  pid: number;
  proc: ChildProcess;
  exited: boolean;
  exitCode: number | null;
  /** The signal that ended it, if one did. */
  exitSignal: string | null;
  /** The last few KB of stdout and stderr, for error messages. */
  output(): string;
  done: Promise<void>;
}

const live = new Set<Child>();

export function startChild(bin: string, args: readonly string[], env: Record<string, string>, cwd: string): Child {
  const proc = spawn(bin, args, { cwd, env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'], detached: true });
  if (proc.pid === undefined) throw new Error(`could not spawn ${bin}`);
  let tail = '';
  const keep = (chunk: Buffer) => {
    tail = (tail + chunk.toString('utf8')).slice(-4096);
  };
  proc.stdout!.on('data', keep);
  proc.stderr!.on('data', keep);
  const child: Child = {
    pid: proc.pid,
    proc,
    exited: false,
    exitCode: null,
    exitSignal: null,
    output: () => tail.trim(),
    done: new Promise((ok) => {
      proc.on('exit', (code, signal) => {
        child.exited = true;
        child.exitCode = code;
        child.exitSignal = signal;
        live.delete(child);
        ok();
      });
    }),
  };
  proc.on('error', () => {}); // seen as an exit before readiness
  live.add(child);
  return child;
}

function signal(pid: number, sig: NodeJS.Signals): void {
  try {
    process.kill(pid, sig);
  } catch {
    // already gone
  }
}

/** SIGTERM to the child's process group, SIGKILL after `graceMs`. */
export async function stopChild(child: Child, graceMs = 3000): Promise<void> {
  if (child.exited) return;
  signal(-child.pid, 'SIGTERM');
  const timer = new Promise<'timeout'>((ok) => setTimeout(() => ok('timeout'), graceMs).unref());
  if ((await Promise.race([child.done.then(() => 'done' as const), timer])) === 'timeout') {
    signal(-child.pid, 'SIGKILL');
    await child.done;
  }
  // Helpers that outlive their parent (wrangler's workerd) are still in the group.
  signal(-child.pid, 'SIGKILL');
}

/** Synchronous last resort on exit or Ctrl-C: kill every live child's group. */
export function killAllNow(): void {
  for (const child of live) signal(-child.pid, 'SIGKILL');
}

/** Stops every live child, each with a short grace. */
export async function stopAll(): Promise<void> {
  await Promise.all([...live].map((c) => stopChild(c, 1500)));
}

/** The children started here and not yet exited. */
export function liveChildren(): readonly Child[] {
  return [...live];
}
