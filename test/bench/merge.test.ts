// --resume keeps what it does not measure; --merge puts a run's rows into an earlier result.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseFlags, resolveConfig } from '../../bench/lib/config.ts';
import { mergeRows, splitResumed } from '../../bench/lib/merge.ts';
import { type BenchResult, emptyRow, type Row } from '../../bench/lib/result.ts';
import { SCENARIO_IDS } from '../../bench/lib/scenarios.ts';

const config = (argv: string[]) => resolveConfig(parseFlags(argv), SCENARIO_IDS);

function row(runtime: Row['runtime'], framework: Row['framework'], scenario: string, rps: number): Row {
  return { ...emptyRow(runtime, framework, scenario, null), ok: true, rps: { avg: rps, p50: rps } };
}

function result(rows: Row[], over: Partial<BenchResult['config']> = {}, command = 'npm run bench'): BenchResult {
  return {
    meta: {
      date: '2026-11-24T10:00:00.000Z',
      host: { cpus: 2, cpuModel: 'Test CPU', memGiB: 8, os: 'TestOS' },
      versions: { rove: '0.1.0 (abc1234)' },
      command,
    },
    config: { profile: 'default', connections: 100, pipelining: 10, durationS: 3, warmupS: 1, rounds: 3, runtimeLoad: 'sustained', ...over },
    rows,
  };
}

describe('--resume', () => {
  it('keeps the rows this run wants as done, and the others as they were', () => {
    const c = config(['--runtimes', 'node', '--frameworks', 'rove,raw', '--scenarios', 'test', '--duration', '3', '--warmup', '1', '--rounds', '3']);
    const old = result([row('node', 'rove', 'test', 1), row('deno', 'rove', 'test', 2), row('node', 'hono', 'test', 3), row('node', 'rove', 'params', 4)]);
    const { done, others } = splitResumed(old, c);
    expect(done.map((r) => r.rps.avg)).toEqual([1]);
    expect(others.map((r) => r.rps.avg)).toEqual([2, 3, 4]);
  });

  it('refuses a file of other load settings', () => {
    const c = config(['--runtimes', 'node', '--duration', '3', '--warmup', '1', '--rounds', '5']);
    expect(() => splitResumed(result([]), c)).toThrow(/rounds is 3, this run's is 5/);
  });
});

describe('--merge', () => {
  it('replaces the rows measured again, keeps the rest in place, and appends new ones', () => {
    const into = result(
      [row('node', 'rove', 'test', 1), row('node', 'raw', 'test', 2), row('deno', 'rove', 'test', 3)],
      {},
      'npm run bench -- --profile default',
    );
    const run = result([row('node', 'rove', 'test', 10), row('node', 'rove', 'params', 11)], { rounds: 5 }, 'npm run bench -- --runtimes node');
    const merged = mergeRows(into, run);
    expect(merged.rows.map((r) => `${r.runtime}/${r.framework}/${r.scenario}=${r.rps.avg}`)).toEqual([
      'node/rove/test=10',
      'node/raw/test=2',
      'deno/rove/test=3',
      'node/rove/params=11',
    ]);
    expect(merged.config.rounds).toBe(3);
    expect(merged.meta.command).toBe(
      'npm run bench -- --profile default; 2 rows measured again on 2026-11-24 at rove 0.1.0 (abc1234) (5 rounds, 3 s + 1 s) by: npm run bench -- --runtimes node',
    );
    // The earlier result itself is left alone.
    expect(into.rows[0]!.rps.avg).toBe(1);
  });

  it('refuses to mix rows of another load', () => {
    expect(() => mergeRows(result([]), result([], { pipelining: 1 }))).toThrow(/pipelining is 10, this run's is 1/);
    // A file from before --runtime-load ran with the sustained load.
    expect(() => mergeRows(result([], { runtimeLoad: undefined }), result([]))).not.toThrow();
  });

  it('is a flag', () => {
    expect(config(['--merge', 'docs/benchmarks/results.json']).merge).toBe('docs/benchmarks/results.json');
    expect(config([]).merge).toBeUndefined();
  });
});

describe('--report RUN --merge FILE', () => {
  it('puts an earlier run into FILE without measuring, and re-renders FILE', () => {
    const dir = mkdtempSync(join(tmpdir(), 'rove-merge-'));
    try {
      const into = join(dir, 'results.json');
      const run = join(dir, 'run.json');
      writeFileSync(into, JSON.stringify(result([row('node', 'rove', 'test', 100), row('node', 'raw', 'test', 110)])));
      writeFileSync(run, JSON.stringify(result([row('node', 'rove', 'test', 120)], { rounds: 5 }, 'npm run bench -- --fresh')));
      const out = spawnSync(process.execPath, ['--import', 'tsx', 'bench/run.ts', '--report', run, '--merge', into], { encoding: 'utf8' });
      expect(out.status, out.stderr).toBe(0);
      const merged = JSON.parse(readFileSync(into, 'utf8')) as BenchResult;
      expect(merged.rows.map((r) => [r.framework, r.rps.avg])).toEqual([
        ['rove', 120],
        ['raw', 110],
      ]);
      expect(merged.meta.command).toContain('--fresh');
      // A file named results.json is a directory's report: README.md beside it.
      expect(existsSync(join(dir, 'README.md'))).toBe(true);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
