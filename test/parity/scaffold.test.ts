// `npm run parity` in a freshly scaffolded app (create-rove's template, its requests.http), on five
// runtimes, with this repository as its `rove` (dist/, as `npm test` builds it first).
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, realpathSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, expect, it } from 'vitest';
import type { ParityResult } from '../../adapters/cli/parity/run.ts';
import { parityCommand } from '../../adapters/cli/parity.ts';
// @ts-expect-error: plain JavaScript without types
import { scaffold } from '../../create-rove/index.js';

const ROOT = resolve(import.meta.dirname, '../..');
const work = mkdtempSync(join(tmpdir(), 'rove-parity-scaffold-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

it('parity > a scaffolded app runs on five runtimes in under a minute; what differs is listed with its cause', async () => {
  const app = join(work, 'app');
  scaffold(app);
  expect(JSON.parse(readFileSync(join(app, 'package.json'), 'utf8')).scripts.parity).toBe('rove parity');
  // node_modules: this repository's, with `rove` being the repository itself.
  mkdirSync(join(app, 'node_modules'));
  for (const entry of readdirSync(join(ROOT, 'node_modules'))) symlinkSync(realpathSync(join(ROOT, 'node_modules', entry)), join(app, 'node_modules', entry));
  symlinkSync(ROOT, join(app, 'node_modules/rove'));
  const out = join(work, 'result.json');
  const t0 = Date.now();
  const code = await parityCommand(['--cwd', app, '--json', out]);
  expect(Date.now() - t0).toBeLessThan(60_000);
  const result = JSON.parse(readFileSync(out, 'utf8')) as ParityResult;
  expect(result.failed).toEqual({});
  expect(result.requests.map((r) => r.name)).toEqual([
    'GET /',
    'GET /users/42',
    'POST /echo',
    'static file',
    'on Workers, [vars] of wrangler.toml; elsewhere the same values, given as environment variables',
    'not found',
  ]);
  for (const r of result.requests) expect(new Set(Object.values(r.statuses)).size, r.name).toBe(1);
  const unexplained = result.requests.flatMap((r) => r.differences.filter((d) => !d.known).map((d) => `${r.name}: ${d.aspect}`));
  // A freshly scaffolded app answers the same on all five, but for known platform differences.
  expect(unexplained).toEqual([]);
  expect(code).toBe(0);
}, 120_000);
