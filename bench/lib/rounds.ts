// A scenario's rounds for one framework, made into its one row of the report.
import { combineListenerRounds } from './listener-cost.ts';
import { medianIndex, type Row } from './result.ts';
import type { Scenario } from './scenarios.ts';

/**
 * The round with the median req/s, failed if any round failed, carrying every round's figures
 * (req/s, CPU, background CPU, p99) for the spread when there was more than one.
 */
export function rowOfRounds(all: readonly Row[], method: Scenario['method']): Row {
  const measured = all.filter((r) => r.rps.avg !== null);
  let row = all[0]!;
  if (measured.length === 0) return row;
  row = measured[medianIndex(measured, (r) => r.rps.avg!)]!;
  // A failure in any round fails the row.
  const failed = all.find((r) => !r.ok);
  if (failed) row = { ...row, ok: false, error: failed.error };
  if (all.length > 1)
    row = {
      ...row,
      roundsRps: all.map((r) => r.rps.avg ?? NaN),
      roundsCpuUsPerReq: all.map((r) => r.cpuUsPerReq),
      roundsBackgroundCpuPct: all.map((r) => r.backgroundCpuPct ?? null),
      roundsP99: all.map((r) => r.latencyMs.p99),
      ...(method === 'pool-p99' ? { roundsSaturationRps: all.map((r) => r.saturation?.rps ?? null) } : {}),
    };
  if (method === 'alternate-listener') row = combineListenerRounds(row, all);
  return row;
}
