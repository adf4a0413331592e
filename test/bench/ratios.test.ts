import { describe, expect, it } from 'vitest';
import { emptyRow, frameworkRatio, median, medianIndex, type Row, ratio, ratioHasErrors, targetFor } from '../../bench/lib/result.ts';
import { ratioTone } from '../../bench/report/document.ts';

function row(framework: Row['framework'], rps: number, cpu: number, ok = true): Row {
  return { ...emptyRow('node', framework, 'test', ok ? null : 'boom'), ok, rps: { avg: rps, p50: rps }, cpuUsPerReq: cpu };
}

describe('bench ratio maths', () => {
  it('divides, and gives null for a missing, failed or zero side', () => {
    expect(ratio(90, 100)).toBeCloseTo(0.9);
    expect(ratio(null, 100)).toBeNull();
    expect(ratio(90, null)).toBeNull();
    expect(ratio(90, 0)).toBeNull();
    expect(ratio(NaN, 10)).toBeNull();
  });

  it('compares rove with a peer on req/s and on CPU per request, from rows that were measured', () => {
    const rows = [row('rove', 45_000, 22), row('raw', 50_000, 20), row('hono', 40_000, 25)];
    expect(frameworkRatio(rows, 'node', 'test', 'rps', 'raw')).toBeCloseTo(0.9);
    expect(frameworkRatio(rows, 'node', 'test', 'rps', 'hono')).toBeCloseTo(1.125);
    expect(frameworkRatio(rows, 'node', 'test', 'cpu', 'raw')).toBeCloseTo(1.1);
    expect(frameworkRatio(rows, 'deno', 'test', 'rps', 'raw')).toBeNull();
    // Errors under load keep the figures (and the report marks the ratio); a failed check has none.
    const withErrors = [row('rove', 45_000, 22, false), row('raw', 50_000, 20)];
    expect(frameworkRatio(withErrors, 'node', 'test', 'rps', 'raw')).toBeCloseTo(0.9);
    expect(ratioHasErrors(withErrors, 'node', 'test', 'raw')).toBe(true);
    expect(ratioHasErrors(rows, 'node', 'test', 'raw')).toBe(false);
    const unmeasured = [emptyRow('node', 'rove', 'test', 'check failed'), row('raw', 50_000, 20)];
    expect(frameworkRatio(unmeasured, 'node', 'test', 'rps', 'raw')).toBeNull();
  });

  it('takes the median, and the index of the median round for an odd or even count', () => {
    expect(median([3, 1, 2])).toBe(2);
    expect(median([4, 1, 3, 2])).toBe(2.5);
    expect(median([])).toBeNaN();
    expect(medianIndex([{ v: 30 }, { v: 10 }, { v: 20 }], (x) => x.v)).toBe(2);
    expect(medianIndex([{ v: 40 }, { v: 10 }, { v: 30 }, { v: 20 }], (x) => x.v)).toBe(3);
  });

  it('knows the targets: 0.90× raw on node, 0.95× on deno and bun for /test, 1.0× hono everywhere', () => {
    expect(targetFor('node', 'test', 'raw')).toBe(0.9);
    expect(targetFor('deno', 'test', 'raw')).toBe(0.95);
    expect(targetFor('bun', 'test', 'raw')).toBe(0.95);
    expect(targetFor('workerd', 'test', 'raw')).toBeNull();
    expect(targetFor('node', 'echo', 'raw')).toBeNull();
    expect(targetFor('workerd', 'echo', 'hono')).toBe(1);
  });

  it('colours a ratio against its target, reading CPU ratios the other way round', () => {
    expect(ratioTone(0.91, 0.9, false)).toBe('good');
    expect(ratioTone(0.85, 0.9, false)).toBe('warn');
    expect(ratioTone(0.7, 0.9, false)).toBe('bad');
    expect(ratioTone(0.97, null, false)).toBe('good');
    expect(ratioTone(1.02, null, true)).toBe('good');
    expect(ratioTone(1.5, null, true)).toBe('bad');
    expect(ratioTone(null, 1, false)).toBeUndefined();
  });
});
