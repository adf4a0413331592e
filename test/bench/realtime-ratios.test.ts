import { describe, expect, it } from 'vitest';
import { compare, comparisonText, realtimeRatios } from '../../bench/realtime/ratios.ts';

describe('realtime bench ratios', () => {
  it('reads rate as rove ÷ peer and CPU per message as peer ÷ rove, round by round', () => {
    expect(realtimeRatios([900, 1100], [1000, 1000], 'rate')).toEqual([0.9, 1.1]);
    const cpu = realtimeRatios([20, 25], [30, 20], 'cpu');
    expect(cpu[0]).toBeCloseTo(1.5);
    expect(cpu[1]).toBeCloseTo(0.8);
  });

  it('skips rounds where either side has no positive figure', () => {
    expect(realtimeRatios([null, 0, 10, 10], [5, 5, null, 20], 'cpu')).toEqual([2]);
    expect(realtimeRatios([10, 10, 10], [10], 'rate')).toEqual([1]);
    expect(compare([null], [10], 'rate')).toBeNull();
  });

  it('is met when every round reaches 1.0, missed when none does, else not established', () => {
    expect(compare([10, 12, 11], [20, 30, 25], 'cpu')?.verdict).toBe('met');
    expect(compare([20, 20], [10, 19], 'cpu')?.verdict).toBe('missed');
    const mixed = compare([900, 1000, 1050], [1000, 1000, 1000], 'rate');
    expect(mixed?.verdict).toBe('not established');
    expect(mixed?.spread).toMatchObject({ median: 1, min: 0.9, max: 1.05, n: 3 });
    expect(comparisonText(mixed ?? null)).toBe('1.00× (0.90–1.05) not established');
    expect(comparisonText(null)).toBe('—');
  });
});
