// The load-test harness end to end: `--profile quick` on node and deno with
// every framework. Proves each target starts, answers every check correctly,
// gets measured and is stopped. Takes about two minutes.
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { FRAMEWORKS, PROFILES } from '../../bench/lib/config.ts';
import type { BenchResult } from '../../bench/lib/result.ts';
import { scenarioById } from '../../bench/lib/scenarios.ts';
import { ROOT } from '../../dev/proc.ts';

const RUNTIMES = ['node', 'deno'];
// A subset that keeps every framework and the listener variant within the time budget.
const SCENARIOS = ['test', 'chain', 'echo', 'fortunes', 'test-view-each-meta', 'listener'];

const dir = mkdtempSync(join(tmpdir(), 'rove-bench-quick-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function runBench(args: string[]): Promise<{ code: number | null; out: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, ['--import', 'tsx', 'bench/run.ts', ...args], { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    child.stdout.on('data', (c) => (out += c));
    child.stderr.on('data', (c) => (out += c));
    child.on('exit', (code) => resolve({ code, out }));
  });
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

describe('bench --profile quick', () => {
  it('measures every framework on node and deno, every check passes, and nothing is left running', async () => {
    const out = join(dir, 'quick.json');
    const run = await runBench([
      '--profile',
      'quick',
      '--frameworks',
      'all',
      '--runtimes',
      RUNTIMES.join(','),
      '--scenarios',
      SCENARIOS.join(','),
      '--out',
      out,
    ]);
    expect(run.code, run.out).toBe(0);

    const result = JSON.parse(readFileSync(out, 'utf8')) as BenchResult;
    expect(result.meta.host.cpus).toBeGreaterThan(0);
    for (const v of ['node', 'deno', 'bun', 'workerd', 'rove', 'hono', 'autocannon']) expect(result.meta.versions[v], v).toMatch(/\d/);
    expect(result.config).toMatchObject({ profile: 'quick', ...PROFILES.quick, rounds: 1 });

    const expected = RUNTIMES.flatMap((rt) =>
      SCENARIOS.flatMap((s) => FRAMEWORKS.filter((f) => scenarioById(s).frameworks.includes(f)).map((f) => `${rt}/${f}/${s}`)),
    );
    expect(result.rows.map((r) => `${r.runtime}/${r.framework}/${r.scenario}`).sort()).toEqual(expected.sort());

    for (const r of result.rows) {
      const id = `${r.runtime}/${r.framework}/${r.scenario}`;
      expect(r.error, id).toBeNull();
      expect(r.ok, id).toBe(true);
      expect(r.rps.avg, id).toBeGreaterThan(0);
      expect(r.rps.p50, id).toBeGreaterThan(0);
      for (const k of ['avg', 'p50', 'p97_5', 'p99', 'max'] as const) expect(r.latencyMs[k], `${id} latency ${k}`).toBeGreaterThanOrEqual(0);
      expect(r.requests, id).toBeGreaterThan(0);
      expect([r.errors, r.timeouts, r.non2xx], id).toEqual([0, 0, 0]);
      expect(r.cpuUsPerReq, id).toBeGreaterThan(0);
      expect(r.rssPeakMB, id).toBeGreaterThan(5);
      expect(r.coldStartMs, id).toBeGreaterThan(0);
    }

    // Beside the JSON: the Markdown, the HTML page and the charts.
    expect(readFileSync(join(dir, 'quick.md'), 'utf8')).toContain('## Summary');
    expect(readFileSync(join(dir, 'quick.html'), 'utf8')).toContain('<img src="quick-charts/summary-hono.svg"');
    expect(readFileSync(join(dir, 'quick-charts/summary-hono.svg'), 'utf8')).toContain('<svg ');
    // The bundle sizes (npm run bench:size) are measured with every run and get their own section.
    expect(result.bundleSizes?.bundles.map((b) => [b.id, b.error])).toEqual([
      ['rove', null],
      ['hono', null],
      ['hello-worker', null],
    ]);
    expect(readFileSync(join(dir, 'quick.md'), 'utf8')).toContain('## Bundle size');

    // Every target the runner started (it logs their pids) has been stopped.
    const pids = [...run.out.matchAll(/\(pid (\d+), port \d+\)/g)].map((m) => Number(m[1]));
    expect(pids.length).toBeGreaterThanOrEqual(RUNTIMES.length * FRAMEWORKS.length);
    expect(pids.filter(alive)).toEqual([]);
  }, 300_000);

  it('--fresh measures each round in newly started servers, records it, and stops every one', async () => {
    const out = join(dir, 'fresh.json');
    const run = await runBench([
      '--profile',
      'quick',
      '--runtimes',
      'node',
      '--frameworks',
      'rove,raw',
      '--scenarios',
      'test',
      '--rounds',
      '2',
      '--fresh',
      '--out',
      out,
    ]);
    expect(run.code, run.out).toBe(0);
    const result = JSON.parse(readFileSync(out, 'utf8')) as BenchResult;
    expect(result.config.fresh).toBe(true);
    expect(result.rows.map((r) => [r.framework, r.ok, r.roundsRps?.length])).toEqual([
      ['rove', true, 2],
      ['raw', true, 2],
    ]);
    // One start per target, then one fresh process each for the second round.
    const pids = [...run.out.matchAll(/\(pid (\d+), port \d+\)/g)].map((m) => Number(m[1]));
    expect(new Set(pids).size).toBe(4);
    expect(run.out.match(/fresh process for test/g)?.length).toBe(2);
    expect(pids.filter(alive)).toEqual([]);
    expect(readFileSync(join(dir, 'fresh.md'), 'utf8')).toContain('Fresh processes:');
  }, 120_000);
});
