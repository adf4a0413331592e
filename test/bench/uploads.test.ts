// npm run bench:uploads: a large upload to a Rove and a Hono server per runtime, stored in a bench
// result with --into (merged by runtime) and rendered in its reports. Run small here: a few MiB.
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { type BenchResult, emptyRow } from '../../bench/lib/result.ts';
import { mergeUploads, type UploadRow } from '../../bench/lib/uploads.ts';
import { ROOT } from '../../dev/proc.ts';

const dir = mkdtempSync(join(tmpdir(), 'rove-bench-uploads-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function runScript(args: string[]): Promise<{ code: number | null; out: string; err: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, ['--import', 'tsx', 'bench/uploads.ts', ...args], { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    child.stdout.on('data', (c) => (out += c));
    child.stderr.on('data', (c) => (err += c));
    child.on('exit', (code) => resolve({ code, out, err }));
  });
}

const row = (runtime: UploadRow['runtime'], framework: UploadRow['framework'], sizeMiB: number): UploadRow => ({
  runtime,
  framework,
  sizeMiB,
  mbps: [1],
  growthMiB: [1],
});

describe('bench:uploads', () => {
  it('uploads to Rove and Hono on each runtime asked for, and stores the rows in a bench result', async () => {
    const file = join(dir, 'run.json');
    const result: BenchResult = {
      meta: { date: '2026-01-02T03:04:05.000Z', host: { cpus: 2, cpuModel: 'Test CPU', memGiB: 8, os: 'TestOS' }, versions: {} },
      config: { profile: 'quick', connections: 10, pipelining: 1, durationS: 1, warmupS: 0.5, rounds: 1 },
      rows: [{ ...emptyRow('node', 'rove', 'test', 'failed to start: test') }],
      uploads: { rows: [row('deno', 'rove', 256), row('deno', 'hono', 256)] },
    };
    writeFileSync(file, JSON.stringify(result));
    const run = await runScript(['--size-mib', '8', '--rounds', '1', '--runtimes', 'node', '--frameworks', 'rove,hono', '--into', file]);
    expect(run.code, run.err).toBe(0);
    expect(run.out).toMatch(/round 1 node rove: \d+ MB\/s, resident set \+\d+ MiB/);
    const stored = JSON.parse(readFileSync(file, 'utf8')) as BenchResult;
    expect(stored.uploads!.rows.map((r) => `${r.runtime} ${r.framework} ${r.sizeMiB} ${r.mbps.length}`)).toEqual([
      'node rove 8 1',
      'node hono 8 1',
      'deno rove 256 1',
      'deno hono 256 1',
    ]);
    for (const r of stored.uploads!.rows) expect(r.error, `${r.runtime} ${r.framework}`).toBeUndefined();
    const md = readFileSync(join(dir, 'run.md'), 'utf8');
    expect(md).toContain('## Uploads');
    expect(md).toMatch(/\| node \| Rove, `parts\(\)` \| 8 MiB × 1 \| \d+ \|/);
    expect(readFileSync(join(dir, 'run.html'), 'utf8')).toContain('id="uploads"');
  }, 120_000);

  it('refuses bad arguments', async () => {
    expect((await runScript(['--rounds', '0'])).code).toBe(2);
    expect((await runScript(['--runtimes', 'workerd'])).code).toBe(2);
    expect((await runScript(['--frameworks', 'express'])).code).toBe(2);
    expect((await runScript(['--into', join(dir, 'missing.json')])).code).toBe(2);
  });

  it('merges by runtime and framework, in runtime order', () => {
    const merged = mergeUploads(
      { rows: [row('bun', 'rove', 1), row('node', 'raw', 1), row('node', 'hono', 1)] },
      { rows: [row('node', 'rove', 2), row('node', 'hono', 2)] },
    );
    expect(merged.rows.map((r) => `${r.runtime} ${r.framework} ${r.sizeMiB}`)).toEqual(['node rove 2', 'node hono 2', 'node raw 1', 'bun rove 1']);
  });
});
