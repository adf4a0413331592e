// Bun's fast-start build (docs/deploy.md): an app built with `bun build --bytecode` runs from
// precompiled CommonJS, not the ES modules it was written as (import.meta.url included). `rove
// parity` serves each example so built on Bun beside Node: nothing may differ beyond what differs
// between Node and Bun anyway.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { requestsFromRoutes } from '../../adapters/cli/parity/requests.ts';
import { parity, readRequests, routesOf } from '../../adapters/cli/parity/run.ts';
import { buildBunBytecode } from '../../bench/lib/bun-bytecode.ts';
import { unexplained } from '../parity/unexplained.ts';

const NODE_ARGS = ['--conditions=source', '--import', 'tsx'];
const work = mkdtempSync(join(tmpdir(), 'rove-bun-bytecode-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

async function run(dir: string, requests: Parameters<typeof parity>[0]['requests'], workers = `${dir}/wrangler.toml`) {
  const bun = buildBunBytecode(`${dir}/bun.ts`, join(work, dir.replaceAll('/', '-')));
  const result = await parity({
    requests,
    runtimes: ['node', 'bun'],
    entries: { node: `${dir}/node.ts`, bun, workers },
    nodeArgs: NODE_ARGS,
  });
  expect(result.failed).toEqual({});
  return result;
}

describe('examples built with bun build --bytecode', () => {
  it('examples/hello answers every route of its route table as on Node', async () => {
    const routes = await routesOf('examples/hello/app.ts', '.', NODE_ARGS);
    const result = await run('examples/hello', requestsFromRoutes(routes), 'wrangler.toml');
    expect(result.requests.length).toBe(24);
    expect(result.requests.every((r) => Object.keys(r.statuses).length === 2)).toBe(true);
    expect(unexplained(result.requests)).toEqual([]);
  }, 120_000);

  it('examples/notes: a login flow and its static files, as on Node', async () => {
    const result = await run('examples/notes', readRequests('test/parity/notes.http'));
    expect(result.requests.filter((r) => r.path === '/me').map((r) => Object.values(r.statuses))).toEqual([
      [401, 401],
      [200, 200],
      [401, 401],
    ]);
    expect(unexplained(result.requests)).toEqual([]);
  }, 120_000);
});
