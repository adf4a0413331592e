// Table cells shared by the report's sections: figures of one row, and ratios with their spread.
import type { FrameworkId } from '../lib/config.ts';
import { type Metric, type Row, ratioHasErrors } from '../lib/result.ts';
import { roundRatios, type Spread, spreadOf, spreadText, targetOf, verdict } from '../lib/spread.ts';
import type { Cell, Tone } from './blocks.ts';
import { DASH, fixed, int } from './format.ts';

export const RUNTIME_LABEL: Record<string, string> = {
  node: 'Node',
  deno: 'Deno',
  bun: 'Bun',
  'deno-deploy': 'Deno Deploy',
  workerd: 'workerd',
};

export const FRAMEWORK_LABEL: Record<string, string> = {
  rove: 'Rove',
  'rove-baseline': 'Rove (baseline)',
  'rove-fs': 'Rove (file routes)',
  hono: 'Hono',
  raw: 'raw',
};

/** Colour for a ratio cell; `lowerIsBetter` for CPU per request. */
export function ratioTone(r: number | null, target: number | null, lowerIsBetter: boolean): Tone | undefined {
  if (r === null) return undefined;
  const v = lowerIsBetter ? 1 / r : r;
  if (target !== null) return v >= target ? 'good' : v >= target - 0.1 ? 'warn' : 'bad';
  return v >= 0.95 ? 'good' : v >= 0.8 ? 'warn' : 'bad';
}

/** A spread without a target: green at 1 or above in every round, red below 1 in every round, yellow across. */
export function spreadCell(s: Spread | null, suffix = ''): Cell {
  if (s === null) return DASH;
  return { text: spreadText(s) + suffix, tone: s.min >= 1 ? 'good' : s.max < 1 ? 'bad' : 'warn' };
}

/** Rove over a peer for one runtime and scenario, median of the rounds with the spread; bold misses a stated target. */
export function ratioCell(rows: readonly Row[], runtime: string, scenario: string, metric: Metric, over: FrameworkId): Cell {
  const s = spreadOf(roundRatios(rows, runtime, scenario, metric, over));
  if (s === null) return DASH;
  const target = targetOf(runtime, scenario, metric, over);
  // † marks a ratio where a side had errors under load.
  const text = spreadText(s) + (ratioHasErrors(rows, runtime, scenario, over) ? '†' : '');
  if (target === null) return { text, tone: ratioTone(s.median, null, false) };
  const v = verdict(s, target);
  if (v === 'not established') return { text, tone: 'warn' };
  return { text, tone: v === 'met' ? 'good' : 'bad', strong: v === 'missed' };
}

/** req/s of a row: failed rows say so, rows with errors under load keep their figure. */
export function rpsCell(r: Row | undefined): Cell {
  if (!r) return DASH;
  if (!r.ok) return { text: r.rps.avg === null ? 'failed' : `${int(r.rps.avg)}†`, tone: 'bad' };
  return int(r.rps.avg);
}

export function cpuCell(r: Row | undefined): Cell {
  return !r || r.rps.avg === null ? DASH : fixed(r.cpuUsPerReq, 1);
}

/** p99 in ms; autocannon reports whole milliseconds, so 0 means under one. */
export function p99Cell(r: Row | undefined): Cell {
  const v = r && r.rps.avg !== null ? r.latencyMs.p99 : null;
  return v == null ? DASH : v < 1 ? '<1' : int(v);
}

/** The items of `all` that occur in `used`, in the order of `all`. */
export function present<T>(all: readonly T[], used: Iterable<string>, id: (t: T) => string): T[] {
  const set = new Set(used);
  return all.filter((t) => set.has(id(t)));
}
