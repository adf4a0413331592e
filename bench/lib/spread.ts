// Ratios over repeated rounds: the median, the spread between rounds, and
// whether a target is met, missed or not established by that spread.
//
// Both metrics are read "higher is better" for Rove: req/s as rove ÷ peer,
// CPU per request as peer ÷ rove (raw's µs per request over Rove's). Round i
// of every framework ran back to back, so the ratio is taken per round and
// only then summarised; one round alone cannot tell a gap from noise.
import type { FrameworkId } from './config.ts';
import { findRow, type Metric, median, type Row } from './result.ts';

export interface Spread {
  median: number;
  min: number;
  max: number;
  /** Rounds that gave a ratio. */
  n: number;
}

export type Verdict = 'met' | 'missed' | 'not established';

/** The per-round values of one row for a metric; one value when the run had one round. None for a failed row. */
export function roundValues(r: Row | undefined, metric: Metric): (number | null)[] | null {
  if (!r?.ok || r.rps.avg === null) return null;
  if (metric === 'rps') return r.roundsRps ? r.roundsRps.map((v) => (Number.isFinite(v) ? v : null)) : [r.rps.avg];
  return r.roundsCpuUsPerReq ?? [r.cpuUsPerReq];
}

/** Per-round ratios, higher is better for Rove (`of`): req/s of ÷ over, CPU over ÷ of. */
export function roundRatios(rows: readonly Row[], runtime: string, scenario: string, metric: Metric, over: FrameworkId, of: FrameworkId = 'rove'): number[] {
  return alignedRatios(rows, runtime, scenario, metric, over, of).filter((v): v is number => v !== null);
}

/** The same, by round index: null for a round where either side has no figure. */
export function alignedRatios(
  rows: readonly Row[],
  runtime: string,
  scenario: string,
  metric: Metric,
  over: FrameworkId,
  of: FrameworkId = 'rove',
): (number | null)[] {
  const a = roundValues(findRow(rows, runtime, of, scenario), metric);
  const b = roundValues(findRow(rows, runtime, over, scenario), metric);
  if (!a || !b) return [];
  const out: (number | null)[] = [];
  for (let i = 0; i < Math.min(a.length, b.length); i++) {
    const x = a[i];
    const y = b[i];
    out.push(x == null || y == null || !(x > 0) || !(y > 0) ? null : metric === 'rps' ? x / y : y / x);
  }
  return out;
}

export function geomean(xs: readonly number[]): number {
  return Math.exp(xs.reduce((sum, x) => sum + Math.log(x), 0) / xs.length);
}

/**
 * One ratio for a group of scenarios on one runtime: per round, the geometric mean of the
 * scenarios' ratios in that round (round i of every framework ran back to back); then the
 * median and spread of those means over the rounds. Scenarios with no ratio (no peer row,
 * not measured) are left out; a round where a counted scenario has no figure is skipped.
 */
export function groupSpread(
  rows: readonly Row[],
  runtime: string,
  scenarios: readonly string[],
  metric: Metric,
  over: FrameworkId,
  of: FrameworkId = 'rove',
): (Spread & { scenarios: number }) | null {
  const per = scenarios.map((s) => alignedRatios(rows, runtime, s, metric, over, of)).filter((r) => r.some((v) => v !== null));
  if (per.length === 0) return null;
  const means: number[] = [];
  for (let i = 0; i < Math.max(...per.map((r) => r.length)); i++) {
    const xs = per.map((r) => r[i] ?? null);
    if (xs.every((v): v is number => v !== null)) means.push(geomean(xs));
  }
  const s = spreadOf(means);
  return s && { ...s, scenarios: per.length };
}

export function spreadOf(ratios: readonly number[]): Spread | null {
  if (ratios.length === 0) return null;
  return { median: median(ratios), min: Math.min(...ratios), max: Math.max(...ratios), n: ratios.length };
}

/**
 * Met when every round reaches the target, missed when none does; a spread that
 * crosses the target (some rounds above, some below) establishes neither.
 */
export function verdict(s: Spread, target: number): Verdict {
  if (s.min >= target) return 'met';
  if (s.max < target) return 'missed';
  return 'not established';
}

/**
 * Targets, higher is better for Rove: at least Hono on every scenario (both metrics);
 * against raw, 0.95 of its /test req/s on deno, bun and workerd (0.90 on node), and 0.90
 * of raw's CPU per request on every scenario (0.95 for workerd's /test).
 */
export function targetOf(runtime: string, scenario: string, metric: Metric, over: FrameworkId): number | null {
  if (over === 'hono') return 1.0;
  if (over !== 'raw') return null;
  if (metric === 'cpu') return runtime === 'workerd' && scenario === 'test' ? 0.95 : 0.9;
  if (scenario !== 'test') return null;
  if (runtime === 'node') return 0.9;
  if (runtime === 'deno' || runtime === 'bun' || runtime === 'workerd') return 0.95;
  return null;
}

/** "0.97× (0.93–1.01)" for several rounds, "0.97×" for one. */
export function spreadText(s: Spread): string {
  const x = (v: number) => `${v.toFixed(2)}×`;
  return s.n > 1 ? `${x(s.median)} (${s.min.toFixed(2)}–${s.max.toFixed(2)})` : x(s.median);
}

/**
 * --baseline: the new Rove against the old one, per round (round i of both ran back to back);
 * CPU is the baseline's µs over Rove's, so above 1 the new code is cheaper.
 */
export function baselineSpread(rows: readonly Row[], runtime: string, scenario: string, metric: Metric): Spread | null {
  return spreadOf(roundRatios(rows, runtime, scenario, metric, 'rove-baseline', 'rove'));
}

/** Whether `a` is lower than `b` by more than the rounds' spread: every round of `a` below every round of `b`. */
export function lowerBeyondSpread(a: Spread | null, b: Spread | null): boolean {
  return a !== null && b !== null && a.max < b.min;
}
