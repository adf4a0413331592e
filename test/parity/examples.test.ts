// `rove parity` on the examples, each on five runtimes: nothing is left unexplained, so a new
// difference fails the test (docs/parity.md, "What parity found in Rove's examples").
import { describe, expect, it } from 'vitest';
import type { ParityRequest } from '../../adapters/cli/parity/requests.ts';
import { requestsFromRoutes } from '../../adapters/cli/parity/requests.ts';
import { parity, readRequests, routesOf } from '../../adapters/cli/parity/run.ts';
import { unexplained } from './unexplained.ts';

const NODE_ARGS = ['--conditions=source', '--import', 'tsx'];

function entries(dir: string, workers = `${dir}/wrangler.toml`) {
  return { node: `${dir}/node.ts`, deno: `${dir}/deno.ts`, bun: `${dir}/bun.ts`, deploy: `${dir}/deploy.ts`, workers };
}

async function run(dir: string, requests: ParityRequest[], workers?: string) {
  const result = await parity({ requests, entries: entries(dir, workers), nodeArgs: NODE_ARGS });
  expect(result.failed).toEqual({});
  return result;
}

describe('parity on the examples', () => {
  it('examples/hello, every route of its route table: bodies, statuses and headers agree', async () => {
    const routes = await routesOf('examples/hello/app.ts', '.', NODE_ARGS);
    const result = await run('examples/hello', requestsFromRoutes(routes), 'wrangler.toml');
    expect(result.requests.length).toBe(24);
    expect(unexplained(result.requests)).toEqual([]);
    expect(result.ms).toBeLessThan(60_000);
  }, 120_000);

  it('examples/notes, a login flow through the cookie jar: nothing differs', async () => {
    const result = await run('examples/notes', readRequests('test/parity/notes.http'));
    // The session was carried: signed in after the login, signed out after the logout, on every runtime.
    expect(result.requests.filter((r) => r.path === '/me').map((r) => Object.values(r.statuses))).toEqual([
      [401, 401, 401, 401, 401],
      [200, 200, 200, 200, 200],
      [401, 401, 401, 401, 401],
    ]);
    // {{origin}} names each runtime's own server, which the CSRF check accepts as the form's origin.
    const sameOrigin = result.requests.find((r) => r.name === "add a note, naming this server as the form's origin");
    expect(Object.values(sameOrigin!.statuses)).toEqual([303, 303, 303, 303, 303]);
    expect(unexplained(result.requests)).toEqual([]);
  }, 120_000);

  it("examples/realtime's HTTP routes: SSE and the WebSocket route's refusals agree", async () => {
    const result = await run('examples/realtime', readRequests('test/parity/realtime.http'));
    expect(result.requests.find((r) => r.name === 'reconnect after event 2')!.body).toContain('id: 3');
    expect(unexplained(result.requests)).toEqual([]);
  }, 120_000);

  it('cache() on five runtimes: a write forgets the stored read everywhere, so every answer agrees', async () => {
    const result = await run('test/rate-limit/app', readRequests('test/parity/cache.http'));
    expect(result.requests.map((r) => r.body)).toEqual(['{"version":1}', '{"version":1}', '{"version":2}', '{"version":2}', '{"version":2}']);
    expect(unexplained(result.requests)).toEqual([]);
  }, 120_000);
});
