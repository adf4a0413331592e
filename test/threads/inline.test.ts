// Where the runtime gives an app no threads (Cloudflare Workers, Deno Deploy)
// the pool runs tasks inline in the same isolate, or answers 503 by option.
// examples/threads bundled and served by workerd, and by `deno serve`.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Running, start } from '../conformance/servers.ts';

const CPU_VALUE = 7453447.913900535;

describe('thread pool on workerd (no threads)', () => {
  let server: Running;
  let url: string;
  const get = (path: string, headers: Record<string, string> = {}) => fetch(url + path, { headers, signal: AbortSignal.timeout(10_000) });

  beforeAll(async () => {
    server = await start('workerd', 'examples/threads', '/');
    url = server.url;
  }, 60_000);
  afterAll(async () => {
    await server?.stop();
  });

  it('runs the task inline by default', async () => {
    const res = await get('/cpu');
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ value: CPU_VALUE });
    expect(await (await get('/stats')).json()).toMatchObject({ mode: 'inline', alive: 0, completed: 1 });
  });

  it('structured-clones payloads inline too', async () => {
    const body = { a: [1, { b: 'c' }] };
    const res = await fetch(`${url}/echo`, { method: 'POST', body: JSON.stringify(body) });
    expect(await res.json()).toEqual(body);
  });

  it("with noThreads: 'reject' the route answers 503 and emits thread:rejected", async () => {
    const res = await get('/cpu', { 'x-pool': 'reject' });
    expect(res.status).toBe(503);
    await res.arrayBuffer();
    const events = (await (await get('/events', { 'x-pool': 'reject' })).json()) as { kind: string; metadata: Record<string, unknown> }[];
    expect(events.find((e) => e.kind === 'thread:rejected')?.metadata).toMatchObject({ reason: 'no-threads' });
  });

  it('an async task over the time limit answers 504 inline', async () => {
    const res = await get('/sleep?ms=5000');
    expect(res.status).toBe(504);
    await res.arrayBuffer();
  });

  it('a task that throws answers 500 with no internals', async () => {
    const res = await get('/fail');
    expect(res.status).toBe(500);
    expect(await res.text()).not.toContain('hunter2');
  });

  it('async listener work outlives the response through waitUntil', async () => {
    await (await get(`/users-none-${Date.now()}`)).arrayBuffer();
    await new Promise((r) => setTimeout(r, 150));
    const late = (await (await get('/late')).json()) as string[];
    // The listener waits 20 ms after each response before recording its path.
    expect(late.some((p) => p.startsWith('/users-none-'))).toBe(true);
  });

  it('an unhandled rejection in the isolate reaches app.on as process:error', async () => {
    await (await get('/unhandled')).arrayBuffer();
    const found = await waitForEvent(url, (e) => e.kind === 'process:error');
    expect(found.metadata).toMatchObject({ runtime: 'workerd', source: 'unhandledRejection', error: { message: 'a stray rejection' } });
  });
});

describe('thread pool on deno serve (Deno Deploy: no threads)', () => {
  let server: Running;
  beforeAll(async () => {
    server = await start('deno-deploy', 'examples/threads', '/');
  }, 60_000);
  afterAll(async () => {
    await server?.stop();
  });

  it('runs the task inline', async () => {
    const res = await fetch(`${server.url}/cpu`);
    expect(await res.json()).toEqual({ value: CPU_VALUE });
    expect(await (await fetch(`${server.url}/stats`)).json()).toMatchObject({ mode: 'inline' });
  });

  it('emits server:listening through the onListen deno serve calls', async () => {
    const found = await waitForEvent(server.url, (e) => e.kind === 'server:listening');
    expect(found.metadata).toMatchObject({ runtime: 'deno-deploy', hostname: '127.0.0.1', port: Number(new URL(server.url).port) });
  });

  it('an unhandled rejection reaches app.on as process:error, and the server keeps serving', async () => {
    await (await fetch(`${server.url}/unhandled`)).arrayBuffer();
    const found = await waitForEvent(server.url, (e) => e.kind === 'process:error');
    expect(found.metadata).toMatchObject({ runtime: 'deno-deploy', source: 'unhandledRejection', error: { message: 'a stray rejection' } });
    expect((await fetch(`${server.url}/`)).status).toBe(200);
  });
});

type Recorded = { kind: string; metadata: Record<string, unknown> };

/** Polls the app's recorded events until one matches (a rejection is reported a tick after the response). */
async function waitForEvent(url: string, match: (e: Recorded) => boolean): Promise<Recorded> {
  for (let i = 0; i < 50; i++) {
    const events = (await (await fetch(`${url}/events`)).json()) as Recorded[];
    const found = events.find(match);
    if (found) return found;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error('no matching event was recorded');
}
