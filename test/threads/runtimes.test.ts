// Thread pool faults and adapter events on real threads: examples/threads
// served by Node (worker_threads), Deno and Bun (module Web Workers), asserted
// over HTTP. One thread and a one-slot queue make every fault easy to provoke.
import { readdirSync, readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort, resolveBin, startChild, stopChild } from '../../dev/proc.ts';
import { type Running, start } from '../conformance/servers.ts';

type Recorded = { kind: string; timestamp: number; metadata: Record<string, any> };

/** The nice value of a process's main thread, and how many of its threads run at nice 10. */
function niceValues(pid: number): { main: number; lowered: number } {
  const nice = (stat: string) => Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[16]);
  const threads = readdirSync(`/proc/${pid}/task`).map((t) => nice(readFileSync(`/proc/${pid}/task/${t}/stat`, 'utf8')));
  return { main: nice(readFileSync(`/proc/${pid}/stat`, 'utf8')), lowered: threads.filter((n) => n === 10).length };
}

const RUNTIMES = ['node', 'deno', 'bun'] as const;
const CPU_VALUE = 7453447.913900535;

describe.each(RUNTIMES)('thread pool on %s', (runtime) => {
  let server: Running;
  let url: string;
  const get = (path: string) => fetch(url + path, { signal: AbortSignal.timeout(10_000) });
  const events = async (): Promise<Recorded[]> => (await get('/events')).json();
  /** The events recorded after `from` (an index into the event list), without request events. */
  const newEvents = async (from: number) => (await events()).slice(from).filter((e) => !e.kind.startsWith('request:'));

  beforeAll(async () => {
    server = await start(runtime, 'examples/threads', '/', { POOL_SIZE: '1', TIMEOUT_MS: '800', MAX_QUEUE: '1' });
    url = server.url;
  }, 60_000);
  afterAll(async () => {
    await server?.stop();
  });

  it('the adapter started the pool with threads and emitted server:listening', async () => {
    expect(await (await get('/stats')).json()).toMatchObject({ mode: 'threads', size: 1, alive: 1 });
    const listening = (await events()).find((e) => e.kind === 'server:listening');
    expect(listening?.metadata).toMatchObject({ runtime, hostname: '127.0.0.1', port: Number(new URL(url).port) });
  });

  it('pool threads run at a lower OS priority than the request thread (Linux; Deno needs --allow-sys=setPriority)', async () => {
    await (await get('/cpu')).arrayBuffer();
    await new Promise((r) => setTimeout(r, 200)); // Deno and Bun threads lower it right after they start
    const { main, lowered } = niceValues(server.child.pid);
    expect(main).toBe(0);
    // Node: the pool thread and the module-hooks thread it starts for tsx. Deno without the permission: none.
    if (runtime === 'deno') expect(lowered).toBe(0);
    else expect(lowered).toBeGreaterThanOrEqual(1);
  });

  it('runs the CPU task on a thread and answers its result', async () => {
    const res = await get('/cpu');
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ value: CPU_VALUE });
  });

  it('payloads and results are structured-cloned', async () => {
    const body = { nested: { list: [1, 'two', null], flag: true } };
    const res = await fetch(`${url}/echo`, { method: 'POST', body: JSON.stringify(body), headers: { 'content-type': 'application/json' } });
    expect(await res.json()).toEqual(body);
  });

  it('a task that throws answers 500 with no internals', async () => {
    const res = await get('/fail');
    expect(res.status).toBe(500);
    const text = await res.text();
    expect(text).not.toMatch(/hunter2|database|stack/);
    expect(JSON.parse(text)).toEqual({ type: 'about:blank', title: 'Internal Server Error', status: 500 });
  });

  it('a task may answer a 4xx on purpose', async () => {
    const res = await get('/invalid');
    expect(res.status).toBe(422);
    expect(await res.json()).toMatchObject({ detail: 'n must be a number' });
  });

  it('a task over the time limit answers 504, emits thread:timeout, and the thread is replaced', async () => {
    const from = (await events()).length;
    const started = Date.now();
    // 3 s of synchronous work, far over the 800 ms limit. (Deno cannot stop the old
    // thread inside it, so it spins on for those 3 s; Node and Bun stop it at once.)
    const res = await get('/spin?ms=3000');
    expect(res.status).toBe(504);
    await res.arrayBuffer();
    expect(Date.now() - started).toBeLessThan(2500);
    expect((await newEvents(from)).map((e) => e.kind)).toEqual(['thread:timeout', 'thread:respawn']);
    const [timeout, respawn] = await newEvents(from);
    expect(timeout.metadata).toMatchObject({ task: 'spin', timeoutMs: 800 });
    expect(respawn.metadata).toMatchObject({ reason: 'timeout', replaces: timeout.metadata.threadId });
    // The replacement serves at once, while the old thread would still be busy.
    expect(await (await get('/cpu')).json()).toEqual({ value: CPU_VALUE });
    expect(Date.now() - started).toBeLessThan(3000);
  });

  it('a crash answers 500, emits thread:crash, then respawns and emits thread:respawn', async () => {
    const from = (await events()).length;
    const res = await get('/crash');
    expect(res.status).toBe(500);
    expect(await res.text()).not.toContain('on purpose');
    const after = await newEvents(from);
    expect(after.map((e) => e.kind)).toEqual(['thread:crash', 'thread:respawn']);
    expect(after[0].metadata).toMatchObject({ task: 'crash' });
    expect(after[0].metadata.error.message).toContain('crashed on purpose');
    expect(after[1].metadata).toMatchObject({ reason: 'crash', replaces: after[0].metadata.threadId });
    expect(await (await get('/cpu')).json()).toEqual({ value: CPU_VALUE });
    expect(await (await get('/stats')).json()).toMatchObject({ alive: 1, crashes: 1, timeouts: 1, respawns: 2 });
  });

  it('a full queue answers 503 with Retry-After and emits thread:rejected', async () => {
    const from = (await events()).length;
    const running = get('/spin?ms=400');
    await new Promise((r) => setTimeout(r, 100));
    const queued = get('/spin?ms=400');
    await new Promise((r) => setTimeout(r, 100));
    const refused = await get('/spin?ms=400');
    expect(refused.status).toBe(503);
    expect(refused.headers.get('retry-after')).toBe('1');
    await refused.arrayBuffer();
    expect((await running).status).toBe(200);
    expect((await queued).status).toBe(200);
    const rejected = (await newEvents(from)).filter((e) => e.kind === 'thread:rejected');
    expect(rejected.map((e) => e.metadata)).toEqual([{ pool: 'default', task: 'spin', reason: 'queue-full', queued: 1, maxQueue: 1 }]);
  });

  it('request:complete carries the route, status, agent and client address the adapter knows', async () => {
    const res = await fetch(`${url}/cpu?n=10`, { headers: { 'user-agent': 'rove-test' } });
    await res.arrayBuffer();
    const all = await events();
    const mine = all.filter((e) => e.kind === 'request:complete' && e.metadata.userAgent === 'rove-test').at(-1)!;
    expect(mine.metadata).toMatchObject({ method: 'GET', path: '/cpu', route: '/cpu', status: 200 });
    expect(mine.metadata.clientAddress).toMatch(/127\.0\.0\.1$/);
    expect(mine.metadata.durationMs).toBeGreaterThanOrEqual(0);
  });

  it('an unhandled rejection emits process:error and the server keeps serving', async () => {
    const from = (await events()).length;
    await (await get('/unhandled')).arrayBuffer();
    await new Promise((r) => setTimeout(r, 100));
    const after = await newEvents(from);
    expect(after.map((e) => e.kind)).toContain('process:error');
    expect(after.find((e) => e.kind === 'process:error')!.metadata).toMatchObject({
      runtime,
      source: 'unhandledRejection',
      error: { message: 'a stray rejection' },
    });
    expect((await get('/')).status).toBe(200);
  });
});

describe('thread pool priority on deno with --allow-sys=setPriority', () => {
  it('lowers the pool threads', async () => {
    const port = await freePort();
    const child = startChild(resolveBin('deno'), ['run', '--allow-net', '--allow-env', '--allow-read', '--allow-sys=setPriority', 'examples/threads/deno.ts'], {
      PORT: String(port),
      POOL_SIZE: '2',
      NO_COLOR: '1',
      DENO_NO_UPDATE_CHECK: '1',
    });
    try {
      let ok = false;
      for (let i = 0; i < 100 && !ok; i++) {
        try {
          ok = (await fetch(`http://127.0.0.1:${port}/cpu`)).status === 200;
        } catch {
          await new Promise((r) => setTimeout(r, 100));
        }
      }
      expect(ok).toBe(true);
      await new Promise((r) => setTimeout(r, 200));
      expect(niceValues(child.pid)).toEqual({ main: 0, lowered: 2 });
    } finally {
      await stopChild(child);
    }
  }, 30_000);
});
