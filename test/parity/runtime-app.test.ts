// `rove parity` on a deliberately runtime-dependent app, through the command itself.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, expect, it } from 'vitest';
import type { ParityResult } from '../../adapters/cli/parity/run.ts';
import { parityCommand } from '../../adapters/cli/parity.ts';

const dir = mkdtempSync(join(tmpdir(), 'rove-parity-test-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const APP = 'test/parity/runtime-app';
const args = ['--node', 'node.ts', '--deno', 'deno.ts', '--bun', 'bun.ts', '--deploy', 'deploy.ts', '--node-args=--conditions=source --import tsx'];

it('parity > a route that answers typeof Deno is a difference naming the runtimes, and the exit code says so', async () => {
  const out = join(dir, 'result.json');
  const code = await parityCommand(['requests.http', '--cwd', APP, ...args, '--json', out]);
  expect(code).toBe(1);
  const result = JSON.parse(readFileSync(out, 'utf8')) as ParityResult;
  expect(result.failed).toEqual({});
  const runtime = result.requests.find((r) => r.path === '/runtime')!;
  const body = runtime.differences.find((d) => d.aspect === 'body')!;
  expect(body.known).toBeUndefined();
  expect(body.groups.map((g) => [g.runtimes.sort(), g.value])).toEqual([
    [['bun', 'node', 'workers'], '{"deno":"undefined"}'],
    [['deno', 'deploy'], '{"deno":"object"}'],
  ]);
  // Request ids, timestamps and session tokens are masked: the volatile route is the same everywhere.
  const unexplained = (path: string) => result.requests.filter((r) => r.path === path).flatMap((r) => r.differences.filter((d) => !d.known));
  expect(unexplained('/volatile')).toEqual([]);
  expect(unexplained('/login')).toEqual([]);
  // The cookie jar carried the session on every runtime: signed in after the login, not before.
  const me = result.requests.filter((r) => r.path === '/me');
  expect(me.map((r) => [r.body, unexplained('/me').length])).toEqual([
    ['{"signedIn":false}', 0],
    ['{"signedIn":true}', 0],
  ]);
  // wrangler.toml's [vars] reach the other runtimes' environment.
  expect(result.requests.find((r) => r.path === '/greeting')!.body).toBe('{"greeting":"from wrangler.toml"}');
}, 120_000);

it('parity > --runtimes picks the runtimes; without a difference among them the exit code is 0', async () => {
  const out = join(dir, 'node-bun.json');
  const code = await parityCommand(['requests.http', '--cwd', APP, ...args, '--runtimes', 'node,bun', '--json', out]);
  const result = JSON.parse(readFileSync(out, 'utf8')) as ParityResult;
  expect(result.runtimes).toEqual(['node', 'bun']);
  expect(result.requests.flatMap((r) => r.differences)).toEqual([]);
  expect(code).toBe(0);
}, 120_000);
