// The session denoKvStore against a real Deno KV: the check runs under Deno (deno-kv-check.ts),
// as the rate-limit denoKvStore's does (test/rate-limit/deno-kv-store.test.ts).
import { execFileSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { ROOT, resolveBin } from '../../../dev/proc.ts';

describe('session denoKvStore on Deno KV', () => {
  it('shares a login between apps on one database, ends it everywhere on logout, expires and refuses oversize values', () => {
    const out = execFileSync(resolveBin('deno'), ['run', '--unstable-kv', '--allow-read', '--allow-env', 'test/middleware/session/deno-kv-check.ts'], {
      cwd: ROOT,
      encoding: 'utf8',
      env: { ...process.env, NO_COLOR: '1', DENO_NO_UPDATE_CHECK: '1' },
      timeout: 60_000,
    });
    const result = JSON.parse(out.trim().split('\n').at(-1)!);
    expect(result.seenOnB).toEqual({ user: 'ann@a', on: 'b' });
    expect(result.keys).toBe(1);
    expect(result.afterLogout).toEqual({ user: null, on: 'a' });
    expect(result.keysAfter).toBe(0);
    expect(result.read).toBe('{"x":1}');
    expect(result.expired).toBeNull();
    expect(result.deleted).toBeNull();
    expect(result.tooLarge).toBe('RangeError');
  }, 60_000);
});
