// Runs that build on an earlier result: --resume finishes an interrupted run, --merge puts a
// run's rows into an earlier result (the committed report) in place of the rows they measure again.
import type { Config } from './config.ts';
import type { BenchResult, Row } from './result.ts';

const key = (r: Row) => `${r.runtime}\u0000${r.framework}\u0000${r.scenario}`;

/** The load settings two runs must share for their rows to sit in one report. */
const SAME_LOAD = ['connections', 'pipelining', 'runtimeLoad'] as const;
/** A setting as a run records it; files from before --runtime-load ran with the sustained load. */
const setting = (c: BenchResult['config'] | Config, k: (typeof SAME_LOAD)[number] | 'durationS' | 'warmupS' | 'rounds') =>
  k === 'runtimeLoad' ? (c.runtimeLoad ?? 'sustained') : c[k];

/**
 * An interrupted run's rows, for --resume: `done` are the rows this run wants (kept, not measured
 * again), `others` the rows of runtimes, frameworks or scenarios this run does not list (kept in
 * the output as they were). Throws when the load settings differ.
 */
export function splitResumed(old: BenchResult, config: Config): { done: Row[]; others: Row[] } {
  for (const k of [...SAME_LOAD, 'durationS', 'warmupS', 'rounds'] as const) {
    if (setting(old.config, k) !== setting(config, k)) throw new Error(`its ${k} is ${setting(old.config, k)}, this run's is ${setting(config, k)}`);
  }
  // rove-baseline rows of another tree would sit beside this run's as if they were the same code.
  if (config.baseline !== undefined && old.rows.some((r) => r.framework === 'rove-baseline') && old.config.baseline !== config.baseline)
    throw new Error(`its baseline is ${old.config.baseline ?? 'none'}, this run's is ${config.baseline}`);
  const wanted = (r: Row) => config.runtimes.includes(r.runtime) && config.frameworks.includes(r.framework) && config.scenarios.includes(r.scenario);
  return { done: old.rows.filter(wanted), others: old.rows.filter((r) => !wanted(r)) };
}

/**
 * `into` with `run`'s rows in place of the rows of the same runtime, framework and scenario (new
 * ones appended), every other row as it was. The command line records what was measured again,
 * when, at which commit and with which rounds; `run`'s bundle sizes, when it has them, replace the
 * earlier ones. Throws when the load settings differ.
 */
export function mergeRows(into: BenchResult, run: BenchResult): BenchResult {
  for (const k of SAME_LOAD) {
    if (setting(into.config, k) !== setting(run.config, k))
      throw new Error(`cannot merge: its ${k} is ${setting(into.config, k)}, this run's is ${setting(run.config, k)}`);
  }
  const fresh = new Map(run.rows.map((r) => [key(r), r]));
  const rows = into.rows.map((r) => fresh.get(key(r)) ?? r);
  const had = new Set(into.rows.map(key));
  for (const r of run.rows) if (!had.has(key(r))) rows.push(r);
  const c = run.config;
  const note =
    `${run.rows.length} rows measured again on ${run.meta.date.slice(0, 10)} at rove ${run.meta.versions.rove ?? '?'} ` +
    `(${c.rounds} rounds, ${c.durationS} s + ${c.warmupS} s) by: ${run.meta.command ?? '?'}`;
  return {
    ...into,
    meta: { ...into.meta, command: `${into.meta.command ?? ''}; ${note}` },
    rows,
    ...(run.bundleSizes ? { bundleSizes: run.bundleSizes } : {}),
  };
}
