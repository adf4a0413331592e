// Splits the Linux perf recordings of `npm run bench -- --perf DIR` into µs of CPU per request, by
// where the samples landed: the kernel, the runtime's native code, V8's builtins and garbage
// collector, the runtime's own JavaScript, and the framework's and app's JavaScript.
//
//   node --import tsx bench/perf-split.ts DIR [--top 15] [--match node-rove-text]
//
// Each recording's shares are scaled by the CPU per request the bench measured from /proc over the
// same window (its .json beside the .data), so the figures add up to that, not to the samples.
import { execFileSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ALL_FRAMEWORKS } from './lib/config.ts';
import type { PerfWindowFile, PerfWindowName } from './lib/perf-record.ts';
import { median } from './lib/result.ts';

export interface Sample {
  /** Share of the recording's samples, in percent. */
  pct: number;
  dso: string;
  sym: string;
}

/** One line of `perf report --sort dso,sym --stdio -g none`, or null for anything else. */
export function parseReportLine(line: string): Sample | null {
  const m = /^\s*([\d.]+)%\s+(.+?)\s+\[[.k]\]\s+(.*)$/.exec(line);
  if (m === null) return null;
  return { pct: Number(m[1]), dso: m[2]!.trim(), sym: m[3]!.trim() };
}

// The runtime's own JavaScript, as V8 names it in its perf map: node's built-in modules, Deno's
// extensions, workerd's internal modules.
const RUNTIME_JS = /(^|\s)(node:|ext:|internal:|cloudflare:|workerd:)/;
const GC = /Heap::|Scaveng|MarkCompact|Sweeper|Evacuat|GlobalHandles|IncrementalMarking|ConcurrentMarking|MinorMark|Unscavenged/;
// Case-insensitive: workerd's tcmalloc names its entry points TCMallocInternal….
const ALLOC = /malloc|^free$|^cfree|^_int_|^__libc_(free|calloc)/i;

/** Where a sample landed. */
export function groupOf(dso: string, sym: string): string {
  if (dso.includes('kernel')) return 'kernel';
  if (sym.startsWith('Builtins_')) return 'V8 builtins';
  if (dso.startsWith('[JIT]') || dso.startsWith('perf-')) {
    if (RUNTIME_JS.test(sym)) return "runtime's JavaScript";
    // An address only: JIT code with no name in the map (Bun's JavaScriptCore writes none).
    if (/^0x[0-9a-f]+$/.test(sym)) return 'unnamed JIT code';
    return 'framework and app JavaScript';
  }
  if (GC.test(sym)) return 'V8 garbage collector';
  if (ALLOC.test(sym)) return 'memory allocation';
  if (dso.startsWith('libc')) return 'libc';
  return 'runtime native code';
}

export interface Split {
  name: string;
  requests: number;
  cpuUsPerRequest: number;
  groups: [string, number][];
  top: [string, number][];
}

/** µs per request by group and by symbol, from a recording's samples and its window's counts. */
export function split(name: string, samples: readonly Sample[], requests: number, cpuUs: number, top = 15): Split {
  const perRequest = cpuUs / requests;
  const total = samples.reduce((sum, s) => sum + s.pct, 0) || 1;
  const groups = new Map<string, number>();
  const symbols = new Map<string, number>();
  for (const s of samples) {
    const us = (s.pct / total) * perRequest;
    const g = groupOf(s.dso, s.sym);
    groups.set(g, (groups.get(g) ?? 0) + us);
    const key = `${s.sym} (${g})`;
    symbols.set(key, (symbols.get(key) ?? 0) + us);
  }
  const byCost = (a: [string, number], b: [string, number]) => b[1] - a[1];
  return {
    name,
    requests,
    cpuUsPerRequest: perRequest,
    groups: [...groups].sort(byCost),
    top: [...symbols].sort(byCost).slice(0, top),
  };
}

function report(data: string): Sample[] {
  const out = execFileSync('perf', ['report', '-i', data, '--no-children', '--sort', 'dso,sym', '--stdio', '-g', 'none', '--percent-limit', '0'], {
    maxBuffer: 1 << 28,
    stdio: ['ignore', 'pipe', 'ignore'],
  }).toString();
  return out.split('\n').flatMap((l) => parseReportLine(l) ?? []);
}

/** Which row a recording is of, as the bench saved it beside the recording (its rounds are one row). */
export type WindowName = Omit<PerfWindowName, 'round'>;

export interface RowMedian extends WindowName {
  rounds: number;
  cpu: number;
  groups: Map<string, number>;
}

/** The median of each group's µs per request over a row's rounds. */
export function medianOfRounds(windows: readonly { name: WindowName; split: Split }[]): RowMedian[] {
  const rows = new Map<string, { name: WindowName; splits: Split[] }>();
  for (const w of windows) {
    const key = [w.name.runtime, w.name.framework, w.name.scenario, w.name.tag ?? ''].join('\0');
    const row = rows.get(key) ?? { name: w.name, splits: [] };
    row.splits.push(w.split);
    rows.set(key, row);
  }
  return [...rows.values()].map(({ name, splits }) => {
    const groups = new Map<string, number>();
    for (const g of new Set(splits.flatMap((r) => r.groups.map(([n]) => n)))) {
      groups.set(g, median(splits.map((r) => r.groups.find(([n]) => n === g)?.[1] ?? 0)));
    }
    return { ...name, rounds: splits.length, cpu: median(splits.map((r) => r.cpuUsPerRequest)), groups };
  });
}

/** One markdown table per runtime and scenario: the frameworks side by side, µs per request. */
export function sideBySide(rows: readonly RowMedian[]): string {
  const cells = new Map<string, RowMedian[]>();
  for (const r of rows) {
    const key = `${r.runtime} · ${r.scenario}${r.tag ? ` · ${r.tag}` : ''}`;
    cells.set(key, [...(cells.get(key) ?? []), r]);
  }
  const out: string[] = [];
  // The report's order of frameworks: Rove first.
  const order = (f: string) => (ALL_FRAMEWORKS as readonly string[]).indexOf(f);
  for (const [key, unsorted] of cells) {
    const list = [...unsorted].sort((a, b) => order(a.framework) - order(b.framework));
    const groups = [...new Set(list.flatMap((r) => [...r.groups.keys()]))].sort((a, b) => (list[0]!.groups.get(b) ?? 0) - (list[0]!.groups.get(a) ?? 0));
    out.push(`\n${key} (µs per request, median of rounds)\n`);
    out.push(`| | ${list.map((r) => `${r.framework} (${r.rounds})`).join(' | ')} |`);
    out.push(`| --- |${list.map(() => ' ---: |').join('')}`);
    out.push(`| CPU | ${list.map((r) => r.cpu.toFixed(1)).join(' | ')} |`);
    for (const g of groups) out.push(`| ${g} | ${list.map((r) => (r.groups.get(g) ?? 0).toFixed(2)).join(' | ')} |`);
  }
  return out.join('\n');
}

function main(argv: string[]): void {
  const dir = argv[0];
  if (dir === undefined) {
    console.error('usage: node --import tsx bench/perf-split.ts DIR [--top N] [--match TEXT]');
    process.exit(2);
  }
  const flag = (name: string) => {
    const i = argv.indexOf(name);
    return i < 0 ? undefined : argv[i + 1];
  };
  const top = Number(flag('--top') ?? 15);
  const match = flag('--match') ?? '';
  const windows: { name: WindowName; split: Split }[] = [];
  for (const file of readdirSync(dir)
    .filter((f) => f.endsWith('.json') && f.includes(match))
    .sort()) {
    const w = JSON.parse(readFileSync(join(dir, file), 'utf8')) as PerfWindowFile;
    if (!(w.requests > 0)) continue; // a window whose load failed
    const s = split(file.slice(0, -5), report(join(dir, w.data)), w.requests, w.cpuUs, top);
    windows.push({ name: { runtime: w.runtime, framework: w.framework, scenario: w.scenario, ...(w.tag ? { tag: w.tag } : {}) }, split: s });
    console.log(`\n${s.name}: ${s.requests} requests, ${s.cpuUsPerRequest.toFixed(1)} µs of CPU per request`);
    for (const [g, us] of s.groups) console.log(`  ${us.toFixed(2).padStart(7)} µs  ${g}`);
    if (s.top.length > 0) console.log('  top symbols:');
    for (const [k, us] of s.top) console.log(`  ${us.toFixed(2).padStart(7)} µs  ${k.slice(0, 110)}`);
  }
  console.log(sideBySide(medianOfRounds(windows)));
}

if (import.meta.url === `file://${process.argv[1]}`) main(process.argv.slice(2));
