// Child processes and /proc. Every target is a direct child (the runtime
// binary itself) in its own process group, so it can be stopped by pid
// and measured; all live children are killed on exit, error or Ctrl-C.
import { type ChildProcess, spawn } from 'node:child_process';
import { readdirSync, readFileSync, realpathSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

export const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../..');

/** The real binary behind node_modules/.bin/NAME (not the npm shim, so the pid is the server). */
export function resolveBin(name: string): string {
  if (name === 'node') return process.execPath;
  return realpathSync(join(ROOT, 'node_modules/.bin', name));
}

// The shipped `rove parity` tool picks free ports the same way.
export { freePort } from '../../adapters/cli/parity/proc.ts';

export interface Child {
  pid: number;
  proc: ChildProcess;
  exited: boolean;
  exitCode: number | null;
  exitSignal: string | null;
  /** Last few KB of stdout+stderr, for error messages. */
  output(): string;
  done: Promise<void>;
}

const live = new Set<Child>();
const OUTPUT_KEEP = 4096;

export function startChild(bin: string, args: readonly string[], env: Record<string, string>, cwd = ROOT): Child {
  const proc = spawn(bin, args, {
    cwd,
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
    // Own process group: Ctrl-C in the terminal reaches only the runner,
    // which then stops targets itself; kill(-pid) also reaches helpers.
    detached: true,
  });
  if (proc.pid === undefined) throw new Error(`could not spawn ${bin}`);
  let tail = '';
  const keep = (chunk: Buffer) => {
    tail = (tail + chunk.toString('utf8')).slice(-OUTPUT_KEEP);
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
  proc.on('error', () => {}); // surfaced through exit / readiness instead
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

/** Stops a target by pid: SIGTERM to its group, SIGKILL after a grace period, then any stray descendant. */
export async function stopChild(child: Child, graceMs = 3000): Promise<void> {
  if (child.exited) return;
  const tree = descendants(child.pid);
  signal(-child.pid, 'SIGTERM');
  signal(child.pid, 'SIGTERM');
  const timer = new Promise<'timeout'>((ok) => setTimeout(() => ok('timeout'), graceMs).unref());
  if ((await Promise.race([child.done.then(() => 'done' as const), timer])) === 'timeout') {
    signal(-child.pid, 'SIGKILL');
    signal(child.pid, 'SIGKILL');
    await child.done;
  }
  for (const pid of tree) if (isAlive(pid)) signal(pid, 'SIGKILL');
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/** Synchronous last resort, for process 'exit' where nothing async can run. */
export function killAllNow(): void {
  for (const child of live) {
    for (const pid of descendants(child.pid)) signal(pid, 'SIGKILL');
    signal(-child.pid, 'SIGKILL');
    signal(child.pid, 'SIGKILL');
  }
}

export async function stopAll(): Promise<void> {
  await Promise.all([...live].map((c) => stopChild(c, 1500)));
}

export function liveChildren(): number {
  return live.size;
}

// ---- /proc ----

export const CLK_TCK = 100; // sysconf(_SC_CLK_TCK) on Linux x86-64/arm64

interface ProcStat {
  ppid: number;
  /** utime + stime in clock ticks, all threads of the process. */
  cpuTicks: number;
}

export function readStat(pid: number): ProcStat | null {
  try {
    const text = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // comm may contain spaces and parens; the fields start after the last ')'.
    const f = text.slice(text.lastIndexOf(')') + 2).split(' ');
    return { ppid: Number(f[1]), cpuTicks: Number(f[11]) + Number(f[12]) };
  } catch {
    return null;
  }
}

/** All live descendants of pid (not including pid). */
export function descendants(pid: number): number[] {
  const children = new Map<number, number[]>();
  let entries: string[];
  try {
    entries = readdirSync('/proc');
  } catch {
    return [];
  }
  for (const name of entries) {
    const c = name.charCodeAt(0);
    if (c < 48 || c > 57) continue;
    const p = Number(name);
    const st = readStat(p);
    if (!st) continue;
    const list = children.get(st.ppid);
    if (list) list.push(p);
    else children.set(st.ppid, [p]);
  }
  const out: number[] = [];
  const stack = [...(children.get(pid) ?? [])];
  while (stack.length) {
    const p = stack.pop()!;
    out.push(p);
    stack.push(...(children.get(p) ?? []));
  }
  return out;
}

export function processTree(pid: number): number[] {
  return [pid, ...descendants(pid)];
}

/** CPU time (µs) per pid for the tree, to diff over a window. */
export function treeCpuUs(pids: readonly number[]): Map<number, number> {
  const out = new Map<number, number>();
  for (const pid of pids) {
    const st = readStat(pid);
    if (st) out.set(pid, (st.cpuTicks * 1e6) / CLK_TCK);
  }
  return out;
}

export function cpuDeltaUs(before: Map<number, number>, after: Map<number, number>): number {
  let total = 0;
  for (const [pid, us] of after) total += us - (before.get(pid) ?? 0);
  return total;
}

function statusKB(pid: number, field: string): number | null {
  try {
    const text = readFileSync(`/proc/${pid}/status`, 'utf8');
    const m = new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(text);
    return m ? Number(m[1]) : null;
  } catch {
    return null;
  }
}

/**
 * Resets the kernel's peak-RSS mark (VmHWM) so the next read covers only the
 * coming window. Returns false where clear_refs is not writable.
 */
export function resetPeakRss(pids: readonly number[]): boolean {
  let ok = true;
  for (const pid of pids) {
    try {
      writeFileSync(`/proc/${pid}/clear_refs`, '5');
    } catch {
      ok = false;
    }
  }
  return ok;
}

/** Sum of VmHWM (peak RSS) over the tree, in MB. */
export function peakRssMB(pids: readonly number[]): number | null {
  let kb = 0;
  let any = false;
  for (const pid of pids) {
    const v = statusKB(pid, 'VmHWM');
    if (v !== null) {
      kb += v;
      any = true;
    }
  }
  return any ? kb / 1024 : null;
}

export function rssMB(pids: readonly number[]): number | null {
  let kb = 0;
  let any = false;
  for (const pid of pids) {
    const v = statusKB(pid, 'VmRSS');
    if (v !== null) {
      kb += v;
      any = true;
    }
  }
  return any ? kb / 1024 : null;
}

/**
 * CPU time all processes of the machine spent (all cores), in µs, from
 * /proc/stat. irq and softirq are left out: loopback traffic of the bench's
 * own load lands there and is charged to no process.
 */
export function systemBusyUs(): number | null {
  try {
    const line = readFileSync('/proc/stat', 'utf8').split('\n', 1)[0]!;
    const f = line.trim().split(/\s+/).slice(1).map(Number);
    // user nice system idle iowait irq softirq steal (guest time is already in user)
    const busy = f[0]! + f[1]! + f[2]!;
    return (busy * 1e6) / CLK_TCK;
  } catch {
    return null;
  }
}

/** Process trees the bench runs besides its targets (the DB scenarios' PostgreSQL): not "others". */
export const ownServices = new Set<number>();

/** CPU time (µs) of this runner and every live target's process tree. */
export function benchCpuUs(): number {
  const pids = [process.pid];
  for (const child of live) pids.push(...processTree(child.pid));
  for (const pid of ownServices) pids.push(...processTree(pid));
  let total = 0;
  for (const us of treeCpuUs(pids).values()) total += us;
  return total;
}

/**
 * A window over which to measure what other processes on the machine used:
 * busy CPU of all cores minus the bench's own (runner + targets), as a
 * percentage of one core. The machine is shared; this says how much.
 */
export function backgroundMeter(): () => number | null {
  const sys0 = systemBusyUs();
  const own0 = benchCpuUs();
  const t0 = performance.now();
  return () => {
    const sys1 = systemBusyUs();
    if (sys0 === null || sys1 === null) return null;
    const wallUs = (performance.now() - t0) * 1000;
    if (wallUs <= 0) return null;
    return Math.max(0, ((sys1 - sys0 - (benchCpuUs() - own0)) / wallUs) * 100);
  };
}
