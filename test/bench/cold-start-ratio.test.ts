// Rove's cold start over a peer's is taken round by round (start i of both ran in round i).
import { describe, expect, it } from 'vitest';
import { coldRatio, coldRatioText } from '../../bench/lib/cold-start-ratio.ts';
import type { ColdStartEntry } from '../../bench/lib/cold-start-result.ts';

const entry = (times: number[], median = times.length ? [...times].sort((a, b) => a - b)[times.length >> 1]! : 50): ColdStartEntry => ({
  runtime: 'bun',
  app: 'two-route-rove',
  mode: 'bundled',
  entry: 'bench/cold/rove/bun.ts',
  request: 'GET /users/7',
  bundleBytes: null,
  bundleGzipBytes: null,
  samples: times.map((firstAnswerMs) => ({ firstAnswerMs, cpuMs: null, startupMs: null })),
  median: { firstAnswerMs: median, cpuMs: null, startupMs: null },
  spread: { firstAnswerMs: null, cpuMs: null, startupMs: null },
  error: null,
});

describe('coldRatio', () => {
  it('pairs the starts by round, so a slow round slows both sides alike', () => {
    // The third round is slow for both: per round the ratio stays 1.1; the medians taken apart would give 1.0.
    const rove = entry([22, 33, 110, 22, 22]);
    const hono = entry([20, 30, 100, 20, 20]);
    const r = coldRatio(rove, hono)!;
    expect(r.rounds).toBe(5);
    expect(r.median).toBeCloseTo(1.1, 10);
    expect(r.quartiles![0]).toBeCloseTo(1.1, 10);
    expect(r.quartiles![1]).toBeCloseTo(1.1, 10);
    expect(coldRatioText(r)).toBe('1.10× (1.10–1.10)');
  });

  it('gives the quartiles of the per-round ratios, interpolated', () => {
    const r = coldRatio(entry([8, 9, 10, 11, 12]), entry([10, 10, 10, 10, 10]))!;
    expect(r.median).toBeCloseTo(1.0, 10);
    expect(r.quartiles![0]).toBeCloseTo(0.9, 10);
    expect(r.quartiles![1]).toBeCloseTo(1.1, 10);
  });

  it('has no quartiles under 4 rounds, and falls back to the medians without samples', () => {
    expect(coldRatioText(coldRatio(entry([11, 12, 13]), entry([10, 10, 10])))).toBe('1.20×');
    expect(coldRatio(entry([], 45), entry([], 50))).toEqual({ median: 0.9, quartiles: null, rounds: 0 });
  });

  it('uses only the rounds both sides have, and none for a failed or missing peer', () => {
    expect(coldRatio(entry([10, 20, 30, 40, 50, 60]), entry([10, 20, 30, 40]))!.rounds).toBe(4);
    expect(coldRatio(entry([10]), undefined)).toBeNull();
    expect(coldRatio(entry([10]), { ...entry([10]), error: 'start 1 failed' })).toBeNull();
    expect(coldRatioText(null)).toBe('–');
  });
});
