// Rove's cold start over a peer's, taken round by round. Start i of every entry ran in the same
// round, seconds apart, so the machine's load at that moment falls on both; the ratio per round
// and then its median and quartiles say more than two medians taken apart.
import type { ColdStartEntry } from './cold-start-result.ts';
import { ratio } from './result.ts';

export interface ColdRatio {
  /** Median of the per-round ratios (or the ratio of the medians, when there are no samples). */
  median: number;
  /** Lower and upper quartile of the per-round ratios; null with fewer than 4 rounds. */
  quartiles: [number, number] | null;
  /** Rounds that gave a ratio. */
  rounds: number;
}

/** Value at quantile q (0–1) of sorted values, interpolated between neighbours. */
function quantile(sorted: readonly number[], q: number): number {
  const at = (sorted.length - 1) * q;
  const lo = Math.floor(at);
  const hi = Math.min(sorted.length - 1, lo + 1);
  return sorted[lo]! + (sorted[hi]! - sorted[lo]!) * (at - lo);
}

/** Rove's first answer over the peer's: below 1 Rove answers sooner. Null when either has no figure. */
export function coldRatio(rove: ColdStartEntry, peer: ColdStartEntry | undefined): ColdRatio | null {
  if (peer === undefined || rove.error !== null || peer.error !== null) return null;
  const perRound: number[] = [];
  for (let i = 0; i < Math.min(rove.samples.length, peer.samples.length); i++) {
    const r = ratio(rove.samples[i]!.firstAnswerMs, peer.samples[i]!.firstAnswerMs);
    if (r !== null) perRound.push(r);
  }
  if (perRound.length === 0) {
    const r = ratio(rove.median.firstAnswerMs, peer.median.firstAnswerMs);
    return r === null ? null : { median: r, quartiles: null, rounds: 0 };
  }
  const sorted = perRound.sort((a, b) => a - b);
  return {
    median: quantile(sorted, 0.5),
    quartiles: sorted.length >= 4 ? [quantile(sorted, 0.25), quantile(sorted, 0.75)] : null,
    rounds: sorted.length,
  };
}

/** `0.98× (0.91–1.04)`: the median with the quartiles, when there are enough rounds. */
export function coldRatioText(r: ColdRatio | null): string {
  if (r === null) return '–';
  const x = (v: number) => `${v.toFixed(2)}×`;
  return r.quartiles === null ? x(r.median) : `${x(r.median)} (${r.quartiles[0].toFixed(2)}–${r.quartiles[1].toFixed(2)})`;
}
