// Deno's own cron parser (saffron, as on Workers) reads every schedule the portable subset accepts;
// schedules that differ between platforms are refused by Rove even where one platform reads them.
import { spawnSync } from 'node:child_process';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ROOT, resolveBin } from '../../dev/proc.ts';
import { portable } from './portable-arbitrary.ts';

function denoRefuses(schedules: string[]): string[] {
  const run = spawnSync(resolveBin('deno'), ['run', '--unstable-cron', 'test/tasks/deno-cron-check.ts'], {
    cwd: ROOT,
    input: JSON.stringify(schedules),
    encoding: 'utf8',
    env: { ...process.env, NO_COLOR: '1', DENO_NO_UPDATE_CHECK: '1' },
  });
  if (run.status !== 0) throw new Error(run.stderr);
  return JSON.parse(run.stdout);
}

describe("Deno.cron and Rove's subset", () => {
  it('Deno.cron accepts 500 generated portable schedules', () => {
    const schedules = fc.sample(portable, { numRuns: 500, seed: 44 });
    expect(denoRefuses(schedules)).toEqual([]);
  });

  it('Deno.cron reads numbered weekdays, which Rove refuses because saffron and croner number them differently', () => {
    // Deno accepts 1 (Sunday for saffron, Monday for croner) and refuses 0 (Sunday for croner).
    expect(denoRefuses(['0 9 * * 1', '0 9 * * 0'])).toEqual(['0 9 * * 0']);
  });

  it.each([
    ['deno run', ['run', '--allow-net', '--allow-env', '--allow-read', 'examples/tasks/deno.ts']],
    ['deno serve', ['serve', '--allow-net', '--allow-env', '--allow-read', '--port', '0', 'examples/tasks/deploy.ts']],
  ])('an app with tasks under %s without --unstable-cron stops at once, naming the flag', (_, args) => {
    const run = spawnSync(resolveBin('deno'), args, {
      cwd: ROOT,
      encoding: 'utf8',
      timeout: 30_000,
      env: { ...process.env, NO_COLOR: '1', DENO_NO_UPDATE_CHECK: '1', PORT: '0' },
    });
    expect(run.status).not.toBe(0);
    expect(run.stderr).toContain('Deno.cron needs the --unstable-cron flag (or "unstable": ["cron"] in deno.json)');
  });
});
