// What the load tests read from /proc (Linux): the CPU time and memory of a server's process
// tree, and what the rest of the machine used meanwhile.
import { readFileSync, writeFileSync } from 'node:fs';
import { liveChildren, processTree, readStat } from '../../dev/proc.ts';

export const CLK_TCK = 100; // sysconf(_SC_CLK_TCK) on Linux x86-64/arm64

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
  for (const child of liveChildren()) pids.push(...processTree(child.pid));
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
