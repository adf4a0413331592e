// The processes of the repository's tests and load tests: the real binaries under node_modules,
// started with the one process module the package ships (adapters/cli/parity/proc.ts): a direct
// child in its own process group, stopped by pid.
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { type Child, findBin, startChild as start } from '../adapters/cli/parity/proc.ts';

export { type Child, freePort, killAllNow, liveChildren, stopAll, stopChild } from '../adapters/cli/parity/proc.ts';

/** The repository's root. */
export const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');

/** The real binary behind node_modules/.bin/NAME (not the npm shim, so the pid is the server). */
export function resolveBin(name: string): string {
  const bin = findBin(name, ROOT);
  if (bin === undefined) throw new Error(`${name} is not in node_modules/.bin: run npm install`);
  return bin;
}

/** Starts `bin` as a direct child in its own process group, in the repository's root unless told. */
export function startChild(bin: string, args: readonly string[], env: Record<string, string>, cwd = ROOT): Child {
  return start(bin, args, env, cwd);
}

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
