// `rove parity` on the examples, each on five runtimes. What is left unexplained is listed here
// exactly, each with its cause (docs/parity.md, "What parity found in Rove's examples"): a new
// difference fails the test, and so does a fix, so the list stays true.
import { describe, expect, it } from 'vitest';
import type { ParityRequest } from '../../adapters/cli/parity/requests.ts';
import { requestsFromRoutes } from '../../adapters/cli/parity/requests.ts';
import type { RequestResult } from '../../adapters/cli/parity/run.ts';
import { parity, readRequests, routesOf } from '../../adapters/cli/parity/run.ts';

const NODE_ARGS = ['--conditions=source', '--import', 'tsx'];

function entries(dir: string, workers = `${dir}/wrangler.toml`) {
  return { node: `${dir}/node.ts`, deno: `${dir}/deno.ts`, bun: `${dir}/bun.ts`, deploy: `${dir}/deploy.ts`, workers };
}

/** The unexplained differences, one line each: `request: aspect: runtimes=value; runtimes=value`. */
function unexplained(requests: RequestResult[]): string[] {
  return requests.flatMap((r) =>
    r.differences
      .filter((d) => d.known === undefined)
      .map((d) => `${r.name}: ${d.aspect}: ${d.groups.map((g) => `${g.runtimes.join(',')}=${g.value}`).join('; ')}`),
  );
}

async function run(dir: string, requests: ParityRequest[], workers?: string) {
  const result = await parity({ requests, entries: entries(dir, workers), nodeArgs: NODE_ARGS });
  expect(result.failed).toEqual({});
  return result;
}

// Node writes a standard Response's body as a stream: Rove's own error answers (problem+json) carry no Content-Length there.
const NODE_ERROR_LENGTH = (name: string, length: number) => `${name}: header content-length: node=(absent); deno,bun,deploy,workers=${length}`;

describe('parity on the examples', () => {
  it('examples/hello, every route of its route table: bodies, statuses and headers agree but for the listed Rove issues', async () => {
    const routes = await routesOf('examples/hello/app.ts', '.', NODE_ARGS);
    const result = await run('examples/hello', requestsFromRoutes(routes), 'wrangler.toml');
    expect(result.requests.length).toBe(24);
    expect(unexplained(result.requests)).toEqual([
      // c.text() on Bun names text/plain;charset=utf-8 (src/context.ts), the others the spec's default text/plain;charset=UTF-8.
      'GET /env: header content-type: node,deno,deploy,workers=text/plain;charset=UTF-8; bun=text/plain;charset=utf-8',
      'HEAD /env: header content-type: node,deno,deploy,workers=text/plain;charset=UTF-8; bun=text/plain;charset=utf-8',
      NODE_ERROR_LENGTH('GET /boom', 67),
      // HEAD of an error: app.ts answers new Response(null, res); Node and workerd then send no length.
      'HEAD /boom: header content-length: node,workers=(absent); deno,bun,deploy=67',
      NODE_ERROR_LENGTH('GET /missing-view', 67),
      'HEAD /missing-view: header content-length: node,workers=(absent); deno,bun,deploy=67',
      NODE_ERROR_LENGTH('GET /__rove_parity_not_found__', 55),
    ]);
    expect(result.ms).toBeLessThan(60_000);
  }, 120_000);

  it('examples/notes, a login flow through the cookie jar: only Content-Length differs', async () => {
    const result = await run('examples/notes', readRequests('test/parity/notes.http'));
    // The session was carried: signed in after the login, signed out after the logout, on every runtime.
    expect(result.requests.filter((r) => r.path === '/me').map((r) => Object.values(r.statuses))).toEqual([
      [401, 401, 401, 401, 401],
      [200, 200, 200, 200, 200],
      [401, 401, 401, 401, 401],
    ]);
    const left = unexplained(result.requests);
    expect(left.filter((l) => !l.includes(': header content-length: '))).toEqual([]);
    expect(left).toEqual([
      // Node's standard-Response path and compress()'s small answers (knownBody reads a clone: the tee'd body has no length on Node and Deno).
      'GET /me: header content-length: node,deno=(absent); bun,deploy,workers=83',
      // A redirect has a null body: Deno, Bun and Deploy send Content-Length: 0, Node (standard Response path) and workerd none.
      'log in: header content-length: node,workers=(absent); deno,bun,deploy=0',
      'signed in: header content-length: node,deno,workers=(absent); bun,deploy=14',
      'add a note: header content-length: node,workers=(absent); deno,bun,deploy=0',
      'the API, with an ETag: header content-length: node,deno,workers=(absent); bun,deploy=76',
      'a form post without its token: header content-length: node,deno=(absent); bun,deploy,workers=163',
      'CORS from another origin: header content-length: node,deno,workers=(absent); bun,deploy=76',
      'the API without a token: header content-length: node,deno=(absent); bun,deploy,workers=129',
      'admin without credentials: header content-length: node,deno=(absent); bun,deploy,workers=93',
      'no such static file: header content-length: node,deno=(absent); bun,deploy,workers=55',
      'not found: header content-length: node,deno=(absent); bun,deploy,workers=55',
      'POST /logout: header content-length: node,workers=(absent); deno,bun,deploy=0',
      'GET /me: header content-length: node,deno=(absent); bun,deploy,workers=83',
    ]);
  }, 120_000);

  it("examples/realtime's HTTP routes: SSE and the WebSocket route's refusals agree but for the listed Rove issues", async () => {
    const result = await run('examples/realtime', readRequests('test/parity/realtime.http'));
    expect(result.requests.find((r) => r.name === 'reconnect after event 2')!.body).toContain('id: 3');
    expect(unexplained(result.requests)).toEqual([
      'GET /: header content-type: node,deno,deploy,workers=text/plain;charset=UTF-8; bun=text/plain;charset=utf-8',
      NODE_ERROR_LENGTH('/ws without an upgrade', 128),
      NODE_ERROR_LENGTH('/ws from another origin', 128),
      'HEAD /: header content-type: node,deno,deploy,workers=text/plain;charset=UTF-8; bun=text/plain;charset=utf-8',
      NODE_ERROR_LENGTH('GET /nope', 55),
    ]);
  }, 120_000);
});
