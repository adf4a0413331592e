import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { DEFAULT_FRAMEWORKS, parseFlags, resolveConfig } from '../../bench/lib/config.ts';
import { configForJson, emptyRow, type Row } from '../../bench/lib/result.ts';
import { plannedRows } from '../../bench/lib/runner.ts';
import { SCENARIO_IDS } from '../../bench/lib/scenarios.ts';
import { baselineSpread, lowerBeyondSpread, roundRatios, spreadOf } from '../../bench/lib/spread.ts';
import { launchFor } from '../../bench/lib/targets.ts';
import { baselineBlocks } from '../../bench/report/baseline-section.ts';
import { ROOT } from '../../dev/proc.ts';

const resolve = (argv: string[]) => resolveConfig(parseFlags(argv), SCENARIO_IDS);

// A stand-in for the tree before a change: only what the option checks and the deno target runs.
const tree = mkdtempSync(join(tmpdir(), 'rove-baseline-'));
mkdirSync(join(tree, 'examples/bench'), { recursive: true });
writeFileSync(join(tree, 'examples/bench/deno.ts'), '');
afterAll(() => rmSync(tree, { recursive: true, force: true }));

function row(framework: Row['framework'], rps: number[], cpu: number[]): Row {
  return {
    ...emptyRow('node', framework, 'test', null),
    ok: true,
    rps: { avg: rps[0]!, p50: rps[0]! },
    cpuUsPerReq: cpu[0]!,
    roundsRps: rps,
    roundsCpuUsPerReq: cpu,
  };
}

describe('bench --baseline DIR', () => {
  it('adds rove-baseline beside rove, whether --frameworks lists it or not', () => {
    const c = resolve(['--baseline', tree, '--frameworks', 'raw,rove,hono']);
    expect(c.baseline).toBe(tree);
    expect(c.frameworks).toEqual(['rove', 'rove-baseline', 'hono', 'raw']);
    expect(resolve([`--baseline=${tree}`, '--frameworks', 'rove,rove-baseline']).frameworks).toEqual(['rove', 'rove-baseline']);
    expect(resolve(['--baseline', tree]).frameworks).toEqual(['rove', 'rove-baseline', 'hono', 'raw']);
    expect(resolve(['--baseline', tree, '--frameworks', 'all']).frameworks).toEqual(['rove', 'rove-baseline', 'rove-fs', 'hono', 'raw']);
    expect(configForJson(c).baseline).toBe(tree);
  });

  it('leaves the frameworks as they were without it, and refuses rove-baseline or a tree without the bench app', () => {
    expect(resolve([]).frameworks).toEqual([...DEFAULT_FRAMEWORKS]);
    expect(resolve([]).baseline).toBeUndefined();
    expect(configForJson(resolve([]))).not.toHaveProperty('baseline');
    expect(() => resolve(['--frameworks', 'rove,rove-baseline'])).toThrow(/rove-baseline" needs --baseline DIR/);
    expect(() => resolve(['--baseline', join(tree, 'nope')])).toThrow(/no examples\/bench/);
    expect(() => parseFlags(['--baseline'])).toThrow(/needs a value/);
  });

  it("plans rove-baseline for Rove's scenarios, and starts it from the baseline tree", () => {
    const c = resolve(['--baseline', tree, '--runtimes', 'node', '--scenarios', 'test,session-read', '--frameworks', 'rove,raw']);
    expect(plannedRows(c).map((p) => `${p.framework}/${p.scenario.id}`)).toEqual([
      'rove/test',
      'rove-baseline/test',
      'raw/test',
      'rove/session-read',
      'rove-baseline/session-read',
    ]);
    const l = launchFor({ runtime: 'deno', framework: 'rove-baseline', variant: 'default', port: 1250, workDir: tree, baseline: tree });
    expect(l.cwd).toBe(tree);
    expect(l.args.at(-1)).toBe('examples/bench/deno.ts');
    expect(launchFor({ runtime: 'deno', framework: 'rove', variant: 'default', port: 1251, workDir: tree }).cwd).toBe(ROOT);
  });

  it('takes rove/rove-baseline per round: the baseline µs over the new, req/s the new over the baseline', () => {
    const rows = [row('rove', [110, 90, 100], [9, 10, 10]), row('rove-baseline', [100, 100, 100], [10, 10, 12]), row('hono', [100, 80, 100], [12, 12, 12])];
    expect(roundRatios(rows, 'node', 'test', 'cpu', 'rove-baseline').map((v) => v.toFixed(3))).toEqual(['1.111', '1.000', '1.200']);
    expect(baselineSpread(rows, 'node', 'test', 'cpu')).toMatchObject({ min: 1, max: 1.2, n: 3 });
    expect(baselineSpread(rows, 'node', 'test', 'rps')).toEqual({ median: 1, min: 0.9, max: 1.1, n: 3 });
    expect(baselineSpread(rows, 'deno', 'test', 'cpu')).toBeNull();
  });

  it('flags rove/hono below rove-baseline/hono only beyond the spread of the rounds', () => {
    expect(lowerBeyondSpread({ median: 0.9, min: 0.85, max: 0.95, n: 3 }, { median: 1.05, min: 1, max: 1.1, n: 3 })).toBe(true);
    expect(lowerBeyondSpread({ median: 0.9, min: 0.85, max: 1.02, n: 3 }, { median: 1.05, min: 1, max: 1.1, n: 3 })).toBe(false);
    expect(lowerBeyondSpread(null, { median: 1, min: 1, max: 1, n: 1 })).toBe(false);
    // New code 20% dearer than the old in every round: flagged in the report's table.
    const rows = [row('rove', [80, 80, 80], [12, 12, 12]), row('rove-baseline', [100, 100, 100], [10, 10, 10]), row('hono', [90, 90, 90], [11, 11, 11])];
    const table = baselineBlocks({
      meta: { date: '', host: { cpus: 2, cpuModel: '', memGiB: 1, os: '' }, versions: {} },
      config: { profile: 'default', connections: 1, pipelining: 1, durationS: 1, warmupS: 0, rounds: 3 },
      rows,
    }).find((b) => b.kind === 'table');
    expect(table?.kind === 'table' && table.table.rows[0]!.at(-1)).toEqual({ text: 'lower', tone: 'bad', strong: true });
    expect(spreadOf(roundRatios(rows, 'node', 'test', 'cpu', 'hono', 'rove-baseline'))?.median).toBeCloseTo(1.1);
  });
});
