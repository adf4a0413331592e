// npm run bench:cold: many fresh starts per runtime × app × mode, round-robin across entries
// so that the machine's noise falls on all of them alike, and the table of their medians.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort } from '../../dev/proc.ts';
import { kb } from './bundle-size.ts';
import {
  COLD_APPS,
  COLD_MODES,
  COLD_RUNTIMES,
  type ColdMode,
  type ColdPlan,
  type ColdRuntime,
  launch,
  type Prepared,
  planEntries,
  prepare,
} from './cold-start-apps.ts';
import { coldStart } from './cold-start-probe.ts';
import { coldRatio, coldRatioText } from './cold-start-ratio.ts';
import type { ColdStartApp, ColdStartEntry, ColdStartResult, ColdStartSample } from './cold-start-result.ts';
import { STARTUP_SLICE, workerStartupMs } from './cold-start-trace.ts';
import { median, ratio } from './result.ts';

export interface ColdOptions {
  /** Aborted when the run is interrupted: no start begins after that. */
  signal?: AbortSignal;
  starts: number;
  runtimes: readonly ColdRuntime[];
  apps: readonly ColdStartApp[];
  modes: readonly ColdMode[];
  /** Wait between refused probes, ms (0: retry at once). */
  pollMs: number;
  /** Give up on a start after this long, ms. */
  timeoutMs: number;
  /**
   * workerd: after each timed start, one more start with workerd's Perfetto trace on, for the
   * module's startup time (a separate start, so tracing never slows the timed one).
   */
  startupTrace: boolean;
  /** The command line, recorded in the result. */
  command: string;
  /** Progress lines (stderr in the CLI). */
  log?: (line: string) => void;
  /** Keep the bundles and workerd configs (their directory is logged). */
  keep?: boolean;
}

interface Live {
  plan: ColdPlan;
  prep: Prepared | null;
  entry: ColdStartEntry;
}

function emptyEntry(p: ColdPlan, error: string | null): ColdStartEntry {
  return {
    runtime: p.runtime,
    app: p.app,
    mode: p.mode,
    entry: p.entry,
    request: `GET ${p.path}`,
    bundleBytes: null,
    bundleGzipBytes: null,
    samples: [],
    median: { firstAnswerMs: null, cpuMs: null, startupMs: null },
    spread: { firstAnswerMs: null, cpuMs: null, startupMs: null },
    error,
  };
}

const label = (e: ColdStartEntry) => `${e.runtime} ${e.app} ${e.mode}`;
const errText = (err: unknown) => (err instanceof Error ? err.message : String(err)).trim();

/** One start of an entry; throws on a failed start or an answer other than 200. */
async function startOnce(l: Live, o: ColdOptions, trace?: string): Promise<ColdStartSample> {
  const port = await freePort();
  const cmd = launch(l.plan, l.prep!, port, trace);
  const r = await coldStart({ ...cmd, port, path: l.plan.path, timeoutMs: o.timeoutMs, pollMs: o.pollMs });
  if (r.status !== 200) throw new Error(`GET ${l.plan.path} answered ${r.status}, not 200`);
  return { firstAnswerMs: r.firstAnswerMs, cpuMs: r.cpuMs, startupMs: null };
}

/** workerd: a traced start (written when workerd exits), read for its startup slice; null if it fails. */
async function tracedStartupMs(l: Live, o: ColdOptions, n: number): Promise<number | null> {
  const trace = join(l.prep!.dir!, `trace-${n}.pftrace`);
  try {
    await startOnce(l, o, trace);
  } catch {
    return null;
  }
  return workerStartupMs(trace);
}

function summarize(samples: readonly ColdStartSample[], key: keyof ColdStartSample): { median: number | null; spread: [number, number] | null } {
  const v = samples.map((s) => s[key]).filter((x): x is number => x !== null);
  if (v.length === 0) return { median: null, spread: null };
  return { median: median(v), spread: [Math.min(...v), Math.max(...v)] };
}

/**
 * Every app, both modes, on the runtimes asked for: the cold-start group of `npm run bench`.
 * Defaults as `npm run bench:cold` has them.
 */
export function measureColdStart(opts: {
  starts: number;
  runtimes?: readonly string[];
  log?: (line: string) => void;
  signal?: AbortSignal;
}): Promise<ColdStartResult> {
  const runtimes = opts.runtimes === undefined ? COLD_RUNTIMES : COLD_RUNTIMES.filter((r) => opts.runtimes!.includes(r));
  return runColdStarts({
    starts: opts.starts,
    runtimes,
    apps: COLD_APPS,
    modes: COLD_MODES,
    pollMs: 1,
    timeoutMs: 20_000,
    startupTrace: true,
    command: `npm run bench (cold start: ${opts.starts} starts per entry)`,
    ...(opts.log ? { log: opts.log } : {}),
    ...(opts.signal ? { signal: opts.signal } : {}),
  });
}

export async function runColdStarts(o: ColdOptions): Promise<ColdStartResult> {
  const log = o.log ?? (() => {});
  const workDir = mkdtempSync(join(tmpdir(), 'rove-cold-'));
  const all: Live[] = [];
  try {
    // Build every bundle before the first timed start.
    for (const plan of planEntries(o.runtimes, o.apps, o.modes)) {
      const l: Live = { plan, prep: null, entry: emptyEntry(plan, plan.skip) };
      all.push(l);
      if (plan.skip) continue;
      try {
        l.prep = await prepare(plan, workDir);
        l.entry.bundleBytes = l.prep.bundleBytes;
        l.entry.bundleGzipBytes = l.prep.bundleGzipBytes;
      } catch (err) {
        l.entry.error = `build failed: ${errText(err)}`;
      }
    }
    let live = all.filter((l) => l.prep !== null);

    // One unrecorded start each: fills Deno's and tsx's transpile caches and the page cache
    // (cold start with a warm disk, as every start after a deploy's first), and finds the
    // entries that do not start at all.
    for (const l of live) {
      o.signal?.throwIfAborted();
      try {
        await startOnce(l, o);
      } catch (err) {
        o.signal?.throwIfAborted();
        l.entry.error = `warm-up start failed: ${errText(err)}`;
      }
    }
    live = live.filter((l) => l.entry.error === null);
    log(`cold start: ${live.length} entries × ${o.starts} starts (bundles in ${workDir})`);

    for (let s = 0; s < o.starts; s++) {
      // Round-robin, the first entry rotating each round so that none always follows the same one.
      const order = live.map((_, i) => live[(i + s) % live.length]!);
      for (const l of order) {
        o.signal?.throwIfAborted();
        if (l.entry.error !== null) continue;
        try {
          const sample = await startOnce(l, o);
          if (l.plan.runtime === 'workerd' && o.startupTrace) sample.startupMs = await tracedStartupMs(l, o, s);
          l.entry.samples.push(sample);
        } catch (err) {
          // A start the interruption cut short is no failure of the entry.
          o.signal?.throwIfAborted();
          l.entry.error = `start ${s + 1} failed: ${errText(err)}`;
        }
      }
      log(`  round ${s + 1}/${o.starts} done`);
    }

    for (const { entry: e, plan } of all) {
      for (const key of ['firstAnswerMs', 'cpuMs', 'startupMs'] as const) {
        const { median: m, spread } = summarize(e.samples, key);
        e.median[key] = m;
        e.spread[key] = spread;
      }
      if (plan.runtime === 'workerd' && e.error === null)
        e.startupNote = !o.startupTrace
          ? 'not measured (--no-startup-trace)'
          : e.median.startupMs === null
            ? `workerd's trace had no ${STARTUP_SLICE} slice`
            : `workerd's own ${STARTUP_SLICE} trace slice (isolate, module compile and top-level evaluation, bindings), from a traced start after each timed one`;
    }
  } finally {
    if (o.keep) log(`kept ${workDir}`);
    else rmSync(workDir, { recursive: true, force: true });
  }
  return { date: new Date().toISOString(), command: o.command, starts: o.starts, entries: all.map((l) => l.entry) };
}

// ---- the table ----

const ms = (v: number | null) => (v === null ? '–' : v < 10 ? v.toFixed(1) : v.toFixed(0));
const withSpread = (m: number | null, s: [number, number] | null) => (m === null ? '–' : `${ms(m)} (${ms(s![0])}–${ms(s![1])})`);
const times = (r: number | null) => (r === null ? '–' : `${r.toFixed(2)}×`);

function pad(rows: string[][]): string {
  const w = rows[0]!.map((_, i) => Math.max(...rows.map((r) => r[i]!.length)));
  return rows
    .map((r) =>
      r
        .map((c, i) => c.padEnd(w[i]!))
        .join('  ')
        .trimEnd(),
    )
    .join('\n');
}

export function coldStartTable(r: ColdStartResult): string {
  const rows: string[][] = [['runtime', 'app', 'mode', 'request', 'first answer ms', 'CPU ms', 'startup ms', 'bundle (gzip)']];
  const notes: string[] = [];
  for (const e of r.entries) {
    if (e.error !== null) {
      notes.push(`${label(e)}: ${e.error}`);
      continue;
    }
    rows.push([
      e.runtime,
      e.app,
      e.mode,
      e.request,
      withSpread(e.median.firstAnswerMs, e.spread.firstAnswerMs),
      withSpread(e.median.cpuMs, e.spread.cpuMs),
      e.runtime === 'workerd' ? withSpread(e.median.startupMs, e.spread.startupMs) : '',
      e.bundleBytes === null ? '' : `${kb(e.bundleBytes)} (${kb(e.bundleGzipBytes)})`,
    ]);
  }
  const ratios: string[][] = [['runtime', 'mode', 'rove/hono answer', 'rove/hono CPU', 'rove/bare answer', 'rove/bare CPU']];
  const find = (rt: string, app: ColdStartApp, mode: string) => r.entries.find((e) => e.runtime === rt && e.app === app && e.mode === mode && e.error === null);
  for (const e of r.entries) {
    if (e.app !== 'two-route-rove' || e.error !== null) continue;
    const hono = find(e.runtime, 'two-route-hono', e.mode);
    const bare = find(e.runtime, 'two-route-bare', e.mode);
    if (!hono && !bare) continue;
    ratios.push([
      e.runtime,
      e.mode,
      coldRatioText(coldRatio(e, hono)),
      times(ratio(e.median.cpuMs, hono?.median.cpuMs)),
      coldRatioText(coldRatio(e, bare)),
      times(ratio(e.median.cpuMs, bare?.median.cpuMs)),
    ]);
  }
  const out = [`Cold start: ${r.starts} fresh processes per entry, median (min–max). CPU in 10 ms clock ticks.`, '', pad(rows)];
  if (ratios.length > 1) out.push('', 'Two-route app: first answer, median of the per-round ratios (quartiles); CPU, ratio of the medians:', pad(ratios));
  const startup = r.entries.find((e) => e.runtime === 'workerd' && e.startupNote)?.startupNote;
  if (startup) out.push('', `workerd startup ms: ${startup}.`);
  if (notes.length) out.push('', 'Not measured:', ...notes.map((n) => `  ${n}`));
  return out.join('\n');
}
