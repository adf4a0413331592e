// denoKvStore against a real Deno KV: the check runs under Deno (deno-kv-check.ts).
import { execFileSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { ROOT, resolveBin } from '../../dev/proc.ts';

describe('rate-limit denoKvStore on Deno KV', () => {
  it('counts exactly under 20 concurrent hits, starts a new window after the old one ends, and limits through rateLimit', () => {
    const out = execFileSync(resolveBin('deno'), ['run', '--unstable-kv', '--allow-read', '--allow-env', 'test/rate-limit/deno-kv-check.ts'], {
      cwd: ROOT,
      encoding: 'utf8',
      env: { ...process.env, NO_COLOR: '1', DENO_NO_UPDATE_CHECK: '1' },
      timeout: 60_000,
    });
    const result = JSON.parse(out.trim().split('\n').at(-1)!);
    expect(result.counts).toEqual(Array.from({ length: 20 }, (_, i) => i + 1));
    expect(result.expiring).toBe(1);
    expect(result.after).toBe(1);
    expect(result.statuses).toEqual([200, 200, 429]);
  }, 60_000);
});
