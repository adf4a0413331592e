// npm run bench:tracing: Rove and Hono on /test and /chain, untraced and traced under the same
// SDK, stored in a bench result with --into (merged by runtime) and rendered in its reports.
// Run small here: node only, one round, a fraction of a second of load.
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { type BenchResult, emptyRow } from '../../bench/lib/result.ts';
import { addedMicros, keptRatios, mergeTracing, type TracingRow } from '../../bench/lib/tracing.ts';
import { ROOT } from '../../dev/proc.ts';

const dir = mkdtempSync(join(tmpdir(), 'rove-bench-tracing-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function runScript(args: string[]): Promise<{ code: number | null; out: string; err: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, ['--import', 'tsx', 'bench/tracing.ts', ...args], { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    child.stdout.on('data', (c) => (out += c));
    child.stderr.on('data', (c) => (err += c));
    child.on('exit', (code) => resolve({ code, out, err }));
  });
}

const row = (runtime: TracingRow['runtime'], framework: TracingRow['framework'], tracing: TracingRow['tracing'], rps: number[]): TracingRow => ({
  runtime,
  framework,
  scenario: 'test',
  tracing,
  rps,
});
const result = (rows: TracingRow[]) => ({ connections: 1, pipelining: 1, durationS: 1, warmupS: 0, rows });

describe('bench:tracing', () => {
  it('measures each target on node, checks that traced servers trace, and stores the rows in a bench result', async () => {
    const file = join(dir, 'run.json');
    const bench: BenchResult = {
      meta: { date: '2026-01-02T03:04:05.000Z', host: { cpus: 2, cpuModel: 'Test CPU', memGiB: 8, os: 'TestOS' }, versions: {} },
      config: { profile: 'quick', connections: 10, pipelining: 1, durationS: 1, warmupS: 0.5, rounds: 1 },
      rows: [{ ...emptyRow('node', 'rove', 'test', 'failed to start: test') }],
      tracing: result([row('bun', 'rove', 'off', [10]), row('bun', 'rove', 'sdk', [9])]),
    };
    writeFileSync(file, JSON.stringify(bench));
    const run = await runScript([
      '--rounds',
      '1',
      '--runtimes',
      'node',
      '--duration',
      '0.3',
      '--warmup',
      '0',
      '--connections',
      '4',
      '--pipelining',
      '1',
      '--into',
      file,
    ]);
    expect(run.code, run.err + run.out).toBe(0);
    expect(run.out).toMatch(/node chain hono traced round 1: \d+ req\/s/);
    const stored = JSON.parse(readFileSync(file, 'utf8')) as BenchResult;
    const rows = stored.tracing!.rows;
    expect(rows.filter((r) => r.runtime === 'node')).toHaveLength(10);
    expect(rows.filter((r) => r.runtime === 'bun')).toHaveLength(2);
    for (const r of rows.filter((r) => r.runtime === 'node')) expect(r.rps[0], `${r.framework} ${r.scenario} ${r.tracing}`).toBeGreaterThan(0);
    const md = readFileSync(join(dir, 'run.md'), 'utf8');
    expect(md).toContain('## Tracing');
    // Rove untraced, kept with no SDK, traced, µs added: the row's first four cells.
    expect(md).toMatch(/\| node \| `chain` \| [\d,]+ \| \d\.\d\d×[^|]* \| [\d,]+ \| -?\d+\.\d[^|]* \|/);
    expect(readFileSync(join(dir, 'run.html'), 'utf8')).toContain('id="tracing"');
  }, 120_000);

  it('refuses bad arguments', async () => {
    expect((await runScript(['--rounds', '0'])).code).toBe(2);
    expect((await runScript(['--runtimes', 'workerd'])).code).toBe(2);
    expect((await runScript(['--into', join(dir, 'missing.json')])).code).toBe(2);
  });

  it('merges by runtime, and pairs traced with untraced round by round', () => {
    const merged = mergeTracing(result([row('bun', 'hono', 'off', [1]), row('node', 'rove', 'off', [1])]), result([row('node', 'rove', 'off', [2])]));
    expect(merged.rows.map((r) => `${r.runtime} ${r.framework} ${r.rps[0]}`)).toEqual(['node rove 2', 'bun hono 1']);
    const rows = [row('node', 'rove', 'off', [100, 200, 0]), row('node', 'rove', 'sdk', [90, null as unknown as number, 5])];
    expect(keptRatios(rows, 'node', 'test', 'rove')).toEqual([0.9]);
    // 10⁶/90 − 10⁶/100 req/s: what tracing added to each request, in µs.
    expect(addedMicros(rows, 'node', 'test', 'rove')[0]).toBeCloseTo(1111.11, 1);
  });
});
