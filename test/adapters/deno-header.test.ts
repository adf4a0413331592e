// The Deno adapters read one request header through Deno's internals (adapters/deno/header.ts),
// for speed. This fails loudly when a Deno release changes them: the adapters would still answer
// right, through `request.headers`, only slower, and nobody would notice.
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { expect, it } from 'vitest';
import { ROOT, resolveBin } from '../../dev/proc.ts';

it("Deno's server still offers the one-header lookup the Deno adapters use, with headers.get's answers", async () => {
  const { stdout } = await promisify(execFile)(resolveBin('deno'), ['run', '-A', 'test/adapters/deno-header-check.ts'], {
    cwd: ROOT,
    env: { ...process.env, NO_COLOR: '1', DENO_NO_UPDATE_CHECK: '1' },
    timeout: 60_000,
  });
  const seen = JSON.parse(stdout.trim().split('\n').at(-1)!);
  expect(seen.inner, "Deno's request internals changed: adapters/deno/header.ts now falls back to request.headers; update it or drop it").toBe(true);
  expect(seen.answers).toEqual(['1', 'a, b', null]);
  expect(seen.built).toBe('a, b');
});
