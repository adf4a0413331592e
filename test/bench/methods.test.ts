import { describe, expect, it } from 'vitest';
import { parseFlags, resolveConfig } from '../../bench/lib/config.ts';
import { combineListenerRounds, listenerRatios } from '../../bench/lib/listener-cost.ts';
import { pinnedCommand, pinningText } from '../../bench/lib/pin.ts';
import { emptyRow, type Row } from '../../bench/lib/result.ts';
import { loadFor } from '../../bench/lib/runtime-load.ts';
import { SCENARIO_IDS } from '../../bench/lib/scenarios.ts';
import { roundRatios, spreadOf, spreadText, targetOf, verdict } from '../../bench/lib/spread.ts';

function row(framework: 'rove' | 'raw' | 'hono', rps: number[], cpu: number[]): Row {
  const r = emptyRow('node', framework, 'test', null);
  r.ok = true;
  r.rps = { avg: rps[0]!, p50: rps[0]! };
  r.cpuUsPerReq = cpu[0]!;
  r.roundsRps = rps;
  r.roundsCpuUsPerReq = cpu;
  return r;
}

describe('bench ratios over rounds', () => {
  const rows = [row('rove', [100, 90, 110], [10, 12, 9]), row('raw', [100, 100, 100], [9, 10, 9])];

  it('takes the ratio per round, higher is better for Rove in both metrics', () => {
    expect(roundRatios(rows, 'node', 'test', 'rps', 'raw')).toEqual([1, 0.9, 1.1]);
    // CPU: raw's µs over Rove's.
    expect(roundRatios(rows, 'node', 'test', 'cpu', 'raw').map((v) => v.toFixed(3))).toEqual(['0.900', '0.833', '1.000']);
  });

  it('reports the median and the spread, and a target the spread crosses as not established', () => {
    const s = spreadOf(roundRatios(rows, 'node', 'test', 'rps', 'raw'))!;
    expect(s).toEqual({ median: 1, min: 0.9, max: 1.1, n: 3 });
    expect(spreadText(s)).toBe('1.00× (0.90–1.10)');
    expect(verdict(s, 0.9)).toBe('met');
    expect(verdict(s, 0.95)).toBe('not established');
    expect(verdict(s, 1.2)).toBe('missed');
    expect(spreadText({ median: 0.97, min: 0.97, max: 0.97, n: 1 })).toBe('0.97×');
  });

  it('knows the targets: Hono everywhere, raw CPU 0.90 on every scenario, workerd /test 0.95', () => {
    expect(targetOf('bun', 'chain', 'cpu', 'raw')).toBe(0.9);
    expect(targetOf('workerd', 'test', 'cpu', 'raw')).toBe(0.95);
    expect(targetOf('workerd', 'test', 'rps', 'raw')).toBe(0.95);
    expect(targetOf('node', 'echo', 'rps', 'raw')).toBeNull();
    expect(targetOf('deno', 'echo', 'cpu', 'hono')).toBe(1);
  });
});

describe('bench methods', () => {
  it('runs workerd unpipelined unless asked for the profile load', () => {
    expect(loadFor('workerd', { connections: 100, pipelining: 10 })).toMatchObject({ connections: 100, pipelining: 1 });
    expect(loadFor('workerd', { connections: 100, pipelining: 10, runtimeLoad: 'profile' })).toEqual({ connections: 100, pipelining: 10 });
    expect(loadFor('node', { connections: 100, pipelining: 10 })).toEqual({ connections: 100, pipelining: 10 });
    // Bun: unpipelined only where its pipelining bug shows (I/O-bound routes).
    expect(loadFor('bun', { connections: 100, pipelining: 10 }, 'static')).toMatchObject({ connections: 100, pipelining: 1 });
    expect(loadFor('bun', { connections: 100, pipelining: 10 }, 'test')).toEqual({ connections: 100, pipelining: 10 });
    expect(resolveConfig(parseFlags(['--runtime-load', 'profile']), SCENARIO_IDS).runtimeLoad).toBe('profile');
    expect(() => resolveConfig(parseFlags(['--runtime-load', 'x']), SCENARIO_IDS)).toThrow(/sustained or profile/);
  });

  it('pins only when set up, and says so', () => {
    expect(pinnedCommand('/bin/node', ['a.ts'])).toEqual({ bin: '/bin/node', args: ['a.ts'] });
    expect(pinningText(null)).toBe('none');
    expect(pinningText({ server: '0', load: '1', tool: 'taskset' })).toMatch(/servers on CPU 0, load generator .* on CPU 1/);
    expect(resolveConfig(parseFlags(['--pin', 'off']), SCENARIO_IDS).pin).toBe('off');
    expect(() => resolveConfig(parseFlags(['--pin', 'maybe']), SCENARIO_IDS)).toThrow(/auto or off/);
  });

  it('gathers the listener-off twin of every round and compares per round', () => {
    const rounds = [100, 90, 120].map((rps, i) => {
      const r = row('rove', [rps], [10]);
      r.roundsRps = undefined;
      r.roundsCpuUsPerReq = undefined;
      r.listenerOff = { rps: 100 + i, cpuUsPerReq: 9, p99: 5, roundsRps: [100 + i], roundsCpuUsPerReq: [9], roundsP99: [5] };
      return r;
    });
    const combined = combineListenerRounds(rounds[0]!, rounds);
    expect(combined.listenerOff?.roundsRps).toEqual([100, 101, 102]);
    expect(combined.listenerOff?.rps).toBe(101);
    expect(listenerRatios(combined, 'rps').map((v) => v.toFixed(3))).toEqual(['1.000', '0.891', '1.176']);
    expect(listenerRatios(combined, 'cpu')).toEqual([0.9, 0.9, 0.9]);
  });
});
