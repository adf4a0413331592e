// Core pinning: on a 2-core machine the server and the load
// generator (autocannon runs inside this runner process) compete for the
// cores. With taskset, the runner and everything it runs itself are pinned
// to the last core and every server to the others, so the two never share
// one, and the results record it.
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { availableParallelism } from 'node:os';

export interface Pinning {
  /** CPU list the servers run on, as taskset takes it ("0", "0-2"). */
  server: string;
  /** CPU list of the load generator (this runner). */
  load: string;
  /** CPU list of the DB scenarios' PostgreSQL, when a run started one (--db-cpu). */
  db?: string;
  tool: 'taskset';
}

const CANDIDATES = ['/usr/bin/taskset', '/bin/taskset', '/usr/local/bin/taskset'];

function tasksetPath(): string | null {
  return CANDIDATES.find((p) => existsSync(p)) ?? null;
}

let bin: string | null = null;
let current: Pinning | null = null;

/**
 * Pins this process (all its threads) to the last core and returns the plan,
 * or null when taskset is missing, the machine has one core, or pinning fails.
 */
export function setUpPinning(mode: 'auto' | 'off'): Pinning | null {
  current = null;
  if (mode === 'off') return null;
  const cores = availableParallelism();
  bin = tasksetPath();
  if (!bin || cores < 2) return null;
  const load = String(cores - 1);
  const server = cores === 2 ? '0' : `0-${cores - 2}`;
  try {
    // -a: every thread of the runner (libuv's pool too), not only the main one.
    execFileSync(bin, ['-a', '-p', '-c', load, String(process.pid)], { stdio: 'ignore' });
  } catch {
    return null;
  }
  current = { server, load, tool: 'taskset' };
  return current;
}

/** The command line of a server, wrapped in taskset when pinning is on (taskset execs: the pid is the server's). */
export function pinnedCommand(command: string, args: readonly string[]): { bin: string; args: string[] } {
  if (!current || !bin) return { bin: command, args: [...args] };
  return { bin, args: ['-c', current.server, command, ...args] };
}

/**
 * Pins a running process tree (every thread of every process) to `cpus`; processes it
 * forks later inherit it (PostgreSQL's backends, one per connection). False when it failed.
 */
export function pinTree(pids: readonly number[], cpus: string): boolean {
  if (!bin) return false;
  try {
    for (const pid of pids) execFileSync(bin, ['-a', '-p', '-c', cpus, String(pid)], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}

export function pinningText(p: Pinning | null | undefined): string {
  if (!p) return 'none';
  const db = p.db ? `, PostgreSQL on CPU ${p.db}` : '';
  return `servers on CPU ${p.server}, load generator (the runner with autocannon) on CPU ${p.load}${db}, with taskset`;
}
