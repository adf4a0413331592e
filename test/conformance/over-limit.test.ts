// A body over the limit gets its 413 every time, on every runtime: the server reads and drops the
// rest (within bounds) before it answers, or, on Node, refuses before `100 Continue` goes out.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DISCARD_BYTES } from '../../adapters/shared/unread-body.ts';
import { CONFORMANCE_RUNTIMES, type Running, type Runtime, start } from './servers.ts';
import { type Outcome, upload } from './upload-client.ts';

const servers = new Map<Runtime, Running>();
const startErrors: string[] = [];

beforeAll(async () => {
  await Promise.all(
    CONFORMANCE_RUNTIMES.map((runtime) =>
      start(runtime).then(
        (server) => void servers.set(runtime, server),
        (error: unknown) => void startErrors.push(String(error)),
      ),
    ),
  );
}, 90_000);

afterAll(async () => {
  await Promise.all([...servers.values()].map((server) => server.stop()));
});

function server(runtime: Runtime): Running {
  const found = servers.get(runtime);
  if (!found) throw new Error(`the ${runtime} server did not start:\n${startErrors.join('\n')}`);
  return found;
}

const MB = 1024 * 1024;
// examples/hello's /echo keeps the default 1 MiB limit.
const OVER = 3 * MB;
const EACH = 50;
// workerd never sends `100 Continue`: a client that asked for it sends after its own wait (1 s here,
// as curl), so those uploads take a second each there and are fewer.
const each = (runtime: Runtime, expectContinue: boolean) => (runtime === 'workerd' && expectContinue ? 5 : EACH);

describe.each(CONFORMANCE_RUNTIMES)('a body over the limit on %s', (runtime) => {
  it('gets its 413 on every upload: Content-Length and chunked, with and without Expect: 100-continue', async () => {
    const tally: Record<string, Record<string, number>> = {};
    for (const chunked of [false, true]) {
      for (const expectContinue of [false, true]) {
        const mode = `${chunked ? 'chunked' : 'content-length'}${expectContinue ? ' + expect' : ''}`;
        const counts: Record<string, number> = {};
        for (let i = 0; i < each(runtime, expectContinue); i++) {
          const outcome = await upload(server(runtime).url, { path: '/echo', size: OVER, chunked, expect: expectContinue });
          const key = 'status' in outcome ? String(outcome.status) : outcome.error;
          counts[key] = (counts[key] ?? 0) + 1;
        }
        tally[mode] = counts;
      }
    }
    expect(tally).toEqual({
      'content-length': { 413: EACH },
      'content-length + expect': { 413: each(runtime, true) },
      chunked: { 413: EACH },
      'chunked + expect': { 413: each(runtime, true) },
    });
  }, 120_000);

  it('an error answered before the body is read (a POST to no route) reaches the client too', async () => {
    const counts: Record<string, number> = {};
    for (let i = 0; i < 20; i++) {
      const outcome = await upload(server(runtime).url, { path: '/no/such/route', size: OVER, chunked: i % 2 === 0, expect: false });
      const key = 'status' in outcome ? String(outcome.status) : outcome.error;
      counts[key] = (counts[key] ?? 0) + 1;
    }
    expect(counts).toEqual({ 404: 20 });
  }, 60_000);

  it('a body that never ends is dropped only up to the bound, and the server keeps serving', async () => {
    const outcome: Outcome = await upload(server(runtime).url, { path: '/echo', size: 1024 * MB, chunked: true, expect: false });
    // The client may see the 413 or a reset: past the bound the server answers and closes at once.
    if ('status' in outcome) expect(outcome.status).toBe(413);
    // What the client got out: the bound, plus what the socket buffers on both sides held.
    expect(outcome.sent).toBeLessThan(DISCARD_BYTES + 16 * MB);
    const res = await fetch(`${server(runtime).url}/`);
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ hello: 'world' });
  }, 60_000);

  it('a declared length past the bound is refused without reading it', async () => {
    const outcome = await upload(server(runtime).url, { path: '/echo', size: 1024 * MB, chunked: false, expect: false });
    if ('status' in outcome) expect(outcome.status).toBe(413);
    expect(outcome.sent).toBeLessThan(64 * MB);
    const res = await fetch(`${server(runtime).url}/`);
    expect(res.status).toBe(200);
  }, 60_000);
});
