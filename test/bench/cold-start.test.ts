// npm run bench:cold: the tool runs end to end on node and deno (one start each) and writes
// the fixed result shape. No timing is asserted: the machine decides those.
import { execFile, spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';
import { planEntries } from '../../bench/lib/cold-start-apps.ts';
import type { ColdStartResult } from '../../bench/lib/cold-start-result.ts';
import { descendants, ROOT } from '../../dev/proc.ts';

const run = promisify(execFile);
const commandOf = (pid: number) => {
  try {
    return readFileSync(`/proc/${pid}/cmdline`, 'utf8').replaceAll('\0', ' ');
  } catch {
    return '';
  }
};
const isAlive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};
const dir = mkdtempSync(join(tmpdir(), 'rove-cold-test-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('bench:cold', () => {
  it('skips workerd source entries with a reason, and times /users/7 on the two-route apps', () => {
    const plan = planEntries(['workerd', 'node'], ['two-route-rove', 'notes'], ['bundled', 'source']);
    expect(plan.filter((p) => p.skip !== null).map((p) => `${p.runtime} ${p.app} ${p.mode}`)).toEqual([
      'workerd two-route-rove source',
      'workerd notes source',
    ]);
    expect(plan.find((p) => p.app === 'two-route-rove')!.path).toBe('/users/7');
    expect(plan.find((p) => p.runtime === 'node' && p.app === 'notes')!.entry).toBe('examples/notes/node.ts');
  });

  it('starts two-route-rove on node and deno and writes the result shape', async () => {
    const out = join(dir, 'cold.json');
    const args = ['--import', 'tsx', 'bench/cold-start.ts', '--starts', '1', '--runtimes', 'node,deno', '--apps', 'two-route-rove', '--json', '--out', out];
    const { stdout } = await run(process.execPath, args, { cwd: ROOT, timeout: 28_000, maxBuffer: 4 << 20 });
    const printed = JSON.parse(stdout) as ColdStartResult;
    const r = JSON.parse(readFileSync(out, 'utf8')) as ColdStartResult;
    expect(r).toEqual(printed);
    expect(r.starts).toBe(1);
    expect(r.command).toContain('--starts 1');
    expect(r.entries.map((e) => `${e.runtime} ${e.mode}`)).toEqual(['node bundled', 'node source', 'deno bundled', 'deno source']);
    for (const e of r.entries) {
      expect(e.error).toBeNull();
      expect(e).toMatchObject({ app: 'two-route-rove', request: 'GET /users/7' });
      expect(e.entry).toBe(`bench/cold/rove/${e.runtime}.ts`);
      expect(e.samples).toHaveLength(1);
      const [s] = e.samples;
      expect(s!.firstAnswerMs).toBeGreaterThan(0);
      expect(s!.cpuMs === null || s!.cpuMs >= 0).toBe(true);
      expect(s!.startupMs).toBeNull();
      expect(e.median.firstAnswerMs).toBe(s!.firstAnswerMs);
      expect(e.spread.firstAnswerMs).toEqual([s!.firstAnswerMs, s!.firstAnswerMs]);
      if (e.mode === 'bundled') expect(e.bundleBytes! > e.bundleGzipBytes!).toBe(true);
      else expect(e.bundleBytes).toBeNull();
    }
  }, 30_000);

  it("reads workerd's startup time from its own trace", async () => {
    const args = ['--import', 'tsx', 'bench/cold-start.ts', '--starts', '1', '--runtimes', 'workerd', '--apps', 'two-route-bare', '--json'];
    const { stdout } = await run(process.execPath, args, { cwd: ROOT, timeout: 28_000, maxBuffer: 4 << 20 });
    const [bundled, source] = (JSON.parse(stdout) as ColdStartResult).entries;
    expect(bundled).toMatchObject({ runtime: 'workerd', mode: 'bundled', error: null });
    expect(bundled!.samples[0]!.startupMs).toBeGreaterThan(0);
    expect(bundled!.startupNote).toContain('Server::makeWorker()');
    expect(source).toMatchObject({ mode: 'source', samples: [] });
    expect(source!.error).toContain('bundled');
  }, 30_000);

  it.each([
    ['npm run bench:cold', ['bench/cold-start.ts', '--starts', '200', '--runtimes', 'node', '--apps', 'two-route-rove', '--modes', 'source']],
    [
      'npm run bench, in its cold starts',
      [
        'bench/run.ts',
        '--profile',
        'quick',
        '--scenarios',
        'test',
        '--runtimes',
        'node',
        '--frameworks',
        'rove',
        '--cold-starts',
        '200',
        '--out',
        join(dir, 'q.json'),
      ],
    ],
  ])(
    '%s stops at the first SIGTERM during the starts, with no server left, instead of going on',
    async (_name, args) => {
      const child = spawn(process.execPath, ['--import', 'tsx', ...args], { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
      let out = '';
      const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
      await new Promise<void>((resolve, reject) => {
        const seen = (chunk: Buffer) => {
          out += chunk.toString();
          if (/entries × 200 starts/.test(out)) resolve();
        };
        child.stdout!.on('data', seen);
        child.stderr!.on('data', seen);
        child.on('exit', () => reject(new Error(`exited before the starts: ${out}`)));
      });
      // Signalled while a server is up: the servers, not the runner's own helpers (tsx's esbuild
      // service goes with the runner). Between two starts there may be none for a moment.
      let servers: number[] = [];
      for (let tries = 0; servers.length === 0 && tries < 500; tries++) {
        servers = descendants(child.pid!).filter((pid) => commandOf(pid).includes('bench/cold/'));
        if (servers.length === 0) await new Promise((r) => setTimeout(r, 10));
      }
      expect(servers.length).toBeGreaterThan(0);
      child.kill('SIGTERM');
      // 200 starts take minutes; stopping takes at most one start and its grace.
      const code = await Promise.race([exited, new Promise<'still running'>((r) => setTimeout(() => r('still running'), 20_000))]);
      if (code === 'still running') child.kill('SIGKILL');
      expect(code).toBe(130);
      expect(out).toContain('SIGTERM: stopping');
      expect(servers.filter(isAlive)).toEqual([]);
    },
    90_000,
  );
});
