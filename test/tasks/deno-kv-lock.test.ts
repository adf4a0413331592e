// kvLock on a real Deno KV: of twenty lists that see a tick, one runs it.
import { spawnSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { ROOT, resolveBin } from '../../dev/proc.ts';

describe('kvLock on Deno KV', () => {
  it('runs each tick once among twenty task lists sharing the KV', () => {
    const run = spawnSync(resolveBin('deno'), ['run', '--unstable-kv', 'test/tasks/deno-kv-lock-check.ts'], {
      cwd: ROOT,
      encoding: 'utf8',
      env: { ...process.env, NO_COLOR: '1', DENO_NO_UPDATE_CHECK: '1' },
    });
    expect(run.status, run.stderr).toBe(0);
    expect(JSON.parse(run.stdout)).toEqual({ runs: { 120000: 1, 180000: 1 } });
  });
});
