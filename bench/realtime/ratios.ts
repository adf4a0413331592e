// Rove against a peer over the rounds of a realtime bench, higher is better for Rove:
// rate as rove ÷ peer, CPU per message as peer ÷ rove. Round i of each framework ran
// seconds apart, so the ratio is taken per round and only then summarised (median and
// range); a range that crosses 1.0 establishes neither "at least" nor "below".
import { type Spread, spreadOf, spreadText, type Verdict, verdict } from '../lib/spread.ts';

export type RealtimeMetric = 'rate' | 'cpu';

export interface Comparison {
  metric: RealtimeMetric;
  /** Per-round ratios, higher is better for Rove. */
  rounds: number[];
  spread: Spread;
  /** Against 1.0 ("at least the peer"). */
  verdict: Verdict;
}

/** Per-round ratios of Rove over a peer; rounds where either side has no positive figure are skipped. */
export function realtimeRatios(rove: readonly (number | null)[], peer: readonly (number | null)[], metric: RealtimeMetric): number[] {
  const out: number[] = [];
  for (let i = 0; i < Math.min(rove.length, peer.length); i++) {
    const a = rove[i];
    const b = peer[i];
    if (a == null || b == null || !(a > 0) || !(b > 0)) continue;
    out.push(metric === 'rate' ? a / b : b / a);
  }
  return out;
}

/**
 * Median, range and verdict of Rove over a peer, or null without a round to compare.
 * @example compare([900, 1000], [1000, 950], 'rate') // median 0.95, range 0.90–1.05: 'not established'
 */
export function compare(rove: readonly (number | null)[], peer: readonly (number | null)[], metric: RealtimeMetric): Comparison | null {
  const rounds = realtimeRatios(rove, peer, metric);
  const spread = spreadOf(rounds);
  return spread && { metric, rounds, spread, verdict: verdict(spread, 1.0) };
}

/** "1.04× (0.98–1.10) not established", "—" without a comparison. */
export function comparisonText(c: Comparison | null): string {
  return c ? `${spreadText(c.spread)} ${c.verdict}` : '—';
}
