// The runtime-neutral pool, driven by a fake spawner whose "threads" run in
// this thread: queueing, timeouts, crashes, respawns, shutdown and the inline
// fallback, deterministically. test/threads/runtimes.test.ts runs the same
// faults on real threads in Node, Deno and Bun.
import { describe, expect, it } from 'vitest';
import { App, HttpError, type RoveEvent } from '../../src/index.ts';
import { createThreadPool, type ThreadPoolOptions, type ThreadSpawner } from '../../src/threads/index.ts';
import type { RunMessage } from '../../src/threads/protocol.ts';
import { serveTasks } from '../../src/threads/protocol.ts';

const tasks = {
  default: (n: number) => n * 2,
  hang: () => new Promise(() => {}),
  later: (ms: number) => new Promise((r) => setTimeout(() => r(ms), ms)),
  fail: () => {
    throw new Error('secret detail');
  },
  invalid: () => {
    throw Object.assign(new Error('bad input'), { status: 422 });
  },
  mutate: (o: { n: number }) => {
    o.n++;
    return o;
  },
  fn: () => () => 1,
};

/** Threads that run `tasks` in this thread; `crash(i)` makes thread i report an uncaught error. */
function fakeSpawner(concurrency = 2) {
  const threads: { name: string; terminated: boolean; crash(): void; exit(code: number): void }[] = [];
  const spawner: ThreadSpawner = {
    runtime: 'fake',
    concurrency,
    spawn(_module, name, events) {
      let terminated = false;
      const handle = serveTasks(
        async () => tasks,
        (reply) => {
          const copy = structuredClone(reply);
          setTimeout(() => !terminated && events.message(copy), 0);
        },
      );
      const rec = {
        name,
        get terminated() {
          return terminated;
        },
        crash: () => events.error(new Error('thread died')),
        exit: (code: number) => events.exit(code),
      };
      threads.push(rec);
      return {
        post(message: RunMessage) {
          const copy = structuredClone(message); // throws DataCloneError like postMessage
          setTimeout(() => !terminated && handle(copy), 0);
        },
        terminate() {
          terminated = true;
        },
      };
    },
  };
  return { spawner, threads };
}

function pool(options: Partial<ThreadPoolOptions> = {}) {
  const p = createThreadPool({ module: 'fake:tasks', load: async () => tasks, ...options });
  const app = new App({ threads: p });
  const seen: RoveEvent[] = [];
  app.on((e) => void seen.push(e));
  const kinds = () => seen.map((e) => e.kind);
  return { p, app, seen, kinds };
}

/** The error a task failed with (and a test failure if it did not fail). */
const failure = (promise: Promise<unknown>): Promise<any> =>
  promise.then(
    () => {
      throw new Error('expected the task to fail');
    },
    (e) => e,
  );

const status = (promise: Promise<unknown>) =>
  promise.then(
    () => 200,
    (e) => (e instanceof HttpError ? e.status : -1),
  );

describe('thread pool (fake threads)', () => {
  it('starts `size` threads, or as many as the spawner reports CPUs', () => {
    const a = fakeSpawner(3);
    pool().p.start(a.spawner);
    expect(a.threads).toHaveLength(3);
    const b = fakeSpawner(3);
    pool({ size: 1 }).p.start(b.spawner);
    expect(b.threads).toHaveLength(1);
  });

  it('runs a task and resolves with its result; `task` picks the export', async () => {
    const { p } = pool({ size: 1 });
    p.start(fakeSpawner().spawner);
    expect(await p.run(21)).toBe(42);
    expect(await p.run(5, { task: 'later' })).toBe(5);
    expect(p.stats).toMatchObject({ mode: 'threads', completed: 2, busy: 0, queued: 0 });
  });

  it('queues tasks beyond the threads and runs them in order', async () => {
    const { p } = pool({ size: 1, maxQueue: 10 });
    p.start(fakeSpawner().spawner);
    const results = await Promise.all([1, 2, 3, 4].map((n) => p.run(n)));
    expect(results).toEqual([2, 4, 6, 8]);
  });

  it('a full queue answers 503 with Retry-After and emits thread:rejected', async () => {
    const { p, seen } = pool({ size: 1, maxQueue: 1, retryAfterS: 3 });
    p.start(fakeSpawner().spawner);
    const first = p.run(20, { task: 'later' });
    const second = p.run(20, { task: 'later' });
    const error = await failure(p.run(1));
    expect(error).toBeInstanceOf(HttpError);
    expect(error.status).toBe(503);
    expect(new Headers(error.headers).get('retry-after')).toBe('3');
    expect(seen.find((e) => e.kind === 'thread:rejected')?.metadata).toMatchObject({ reason: 'queue-full', queued: 1, maxQueue: 1, task: 'default' });
    expect(await Promise.all([first, second])).toEqual([20, 20]);
  });

  it('a task over the time limit answers 504, emits thread:timeout, and its thread is terminated and replaced', async () => {
    const { p, kinds, seen } = pool({ size: 1, timeoutMs: 30, maxQueue: 5 });
    const { spawner, threads } = fakeSpawner();
    p.start(spawner);
    const stuck = status(p.run(null, { task: 'hang' }));
    const queued = p.run(4); // waits behind the stuck task, then runs on the replacement
    expect(await stuck).toBe(504);
    expect(await queued).toBe(8);
    expect(kinds()).toEqual(['thread:timeout', 'thread:respawn']);
    expect(seen[0].metadata).toMatchObject({ threadId: 1, task: 'hang', timeoutMs: 30 });
    expect(seen[1].metadata).toMatchObject({ threadId: 2, replaces: 1, reason: 'timeout' });
    expect(threads.map((t) => t.terminated)).toEqual([true, false]);
    expect(p.stats).toMatchObject({ timeouts: 1, respawns: 1, alive: 1 });
  });

  it('a crash answers 500, emits thread:crash, then respawns and emits thread:respawn', async () => {
    const { p, kinds, seen } = pool({ size: 1 });
    const { spawner, threads } = fakeSpawner();
    p.start(spawner);
    const running = p.run(null, { task: 'hang' });
    await new Promise((r) => setTimeout(r, 5));
    threads[0].crash();
    const error = await failure(running);
    expect(error.status).toBe(500);
    expect(error.expose).toBe(false);
    expect(kinds()).toEqual(['thread:crash', 'thread:respawn']);
    expect(seen[0].metadata).toMatchObject({ threadId: 1, task: 'hang' });
    expect((seen[0].metadata as { error: Error }).error.message).toBe('thread died');
    expect(seen[1].metadata).toMatchObject({ threadId: 2, replaces: 1, reason: 'crash' });
    expect(await p.run(1)).toBe(2);
  });

  it('an idle thread that exits is replaced too, and an event from the dead thread is ignored', async () => {
    const { p, kinds } = pool({ size: 1 });
    const { spawner, threads } = fakeSpawner();
    p.start(spawner);
    threads[0].exit(1);
    threads[0].crash(); // the same death reported twice (Node: 'error' then 'exit')
    expect(kinds()).toEqual(['thread:crash', 'thread:respawn']);
    expect(await p.run(2)).toBe(4);
  });

  it('a thread that keeps crashing is respawned with a growing delay, not in a hot loop', async () => {
    const { p, kinds } = pool({ size: 1 });
    const { spawner, threads } = fakeSpawner();
    p.start(spawner);
    threads[0].crash(); // first crash: replaced at once
    expect(threads).toHaveLength(2);
    threads[1].crash(); // second in a row: after a delay
    expect(threads).toHaveLength(2);
    await new Promise((r) => setTimeout(r, 80));
    expect(threads).toHaveLength(3);
    expect(kinds().filter((k) => k === 'thread:respawn')).toHaveLength(2);
  });

  it('an error thrown by the task answers 500 and keeps its message out of the response outside dev', async () => {
    const { p } = pool({ size: 1 });
    p.start(fakeSpawner().spawner);
    const error = await failure(p.run(null, { task: 'fail' }));
    expect(error).toBeInstanceOf(HttpError);
    expect(error.status).toBe(500);
    expect(error.expose).toBe(false);
    expect(error.cause.message).toBe('secret detail');
    expect(p.stats.failed).toBe(1);
    expect(await p.run(1)).toBe(2); // the thread is still fine
  });

  it('a task may ask for a 4xx by throwing an error with a status', async () => {
    const { p } = pool({ size: 1 });
    p.start(fakeSpawner().spawner);
    const error = await failure(p.run(null, { task: 'invalid' }));
    expect(error.status).toBe(422);
    expect(error.expose).toBe(true);
  });

  it('a payload that cannot be cloned answers 500 and frees the thread', async () => {
    const { p } = pool({ size: 1 });
    p.start(fakeSpawner().spawner);
    expect(await status(p.run(() => 1))).toBe(500);
    expect(await p.run(3)).toBe(6);
  });

  it('a result that cannot be cloned answers 500', async () => {
    const { p } = pool({ size: 1 });
    p.start(fakeSpawner().spawner);
    expect(await status(p.run(null, { task: 'fn' }))).toBe(500);
  });

  it('an unknown task name answers 500', async () => {
    const { p } = pool({ size: 1 });
    p.start(fakeSpawner().spawner);
    expect(await status(p.run(null, { task: 'nope' }))).toBe(500);
  });

  it('close() terminates every thread; running and queued tasks answer 503, and so does every later task', async () => {
    const { p, seen } = pool({ size: 2, maxQueue: 5 });
    const { spawner, threads } = fakeSpawner();
    p.start(spawner);
    const pending = [p.run(null, { task: 'hang' }), p.run(null, { task: 'hang' }), p.run(1)].map(status);
    await p.close();
    expect(await Promise.all(pending)).toEqual([503, 503, 503]);
    expect(threads.every((t) => t.terminated)).toBe(true);
    expect(p.stats).toMatchObject({ mode: 'closed', alive: 0, queued: 0 });
    expect(await status(p.run(1))).toBe(503);
    expect(seen.at(-1)?.metadata).toMatchObject({ reason: 'closed' });
  });

  it('app.shutdown() closes the pool', async () => {
    const { p, app } = pool({ size: 1 });
    const { spawner, threads } = fakeSpawner();
    p.start(spawner);
    await app.shutdown();
    expect(threads[0].terminated).toBe(true);
    expect(p.mode).toBe('closed');
  });

  it('a second start() is ignored', () => {
    const { p } = pool({ size: 1 });
    const a = fakeSpawner();
    p.start(a.spawner);
    p.start(fakeSpawner().spawner);
    expect(a.threads).toHaveLength(1);
  });

  it('refuses nonsense options', () => {
    expect(() => createThreadPool({ module: 'x', size: 0 })).toThrow(RangeError);
    expect(() => createThreadPool({ module: 'x', timeoutMs: -1 })).toThrow(RangeError);
    expect(() => createThreadPool({} as ThreadPoolOptions)).toThrow(TypeError);
  });
});

describe('thread pool without threads (Workers, Deno Deploy)', () => {
  it('runs tasks inline through load(), cloning the payload and the result', async () => {
    const { p } = pool();
    const input = { n: 1 };
    const out = await p.run<{ n: number }>(input, { task: 'mutate' });
    expect(out).toEqual({ n: 2 });
    expect(input).toEqual({ n: 1 });
    expect(p.stats).toMatchObject({ mode: 'inline', completed: 1 });
  });

  it('inline, an async task over the time limit answers 504 and emits thread:timeout', async () => {
    const { p, kinds } = pool({ timeoutMs: 20 });
    expect(await status(p.run(null, { task: 'hang' }))).toBe(504);
    expect(kinds()).toEqual(['thread:timeout']);
  });

  it('inline, a throwing task answers 500 without internals', async () => {
    const { p } = pool();
    const error = await failure(p.run(null, { task: 'fail' }));
    expect(error.status).toBe(500);
    expect(error.expose).toBe(false);
  });

  it('inline, more tasks in flight than size + maxQueue answer 503', async () => {
    const { p, kinds } = pool({ size: 1, maxQueue: 1 });
    const a = p.run(10, { task: 'later' });
    const b = p.run(10, { task: 'later' });
    expect(await status(p.run(10, { task: 'later' }))).toBe(503);
    expect(kinds()).toEqual(['thread:rejected']);
    await Promise.all([a, b]);
  });

  it("with noThreads: 'reject' every task answers 503 and emits thread:rejected", async () => {
    const { p, seen } = pool({ noThreads: 'reject' });
    expect(await status(p.run(1))).toBe(503);
    expect(seen[0]).toMatchObject({ kind: 'thread:rejected', metadata: { reason: 'no-threads' } });
    expect(p.mode).toBe('reject');
  });

  it('without load(), the module URL is imported', async () => {
    const url = 'data:text/javascript,export default (n) => n + 1';
    const p = createThreadPool({ module: () => url });
    expect(await p.run(1)).toBe(2);
  });

  it('a module URL that cannot be made (Workers: import.meta.url is undefined) asks for load()', async () => {
    const p = createThreadPool({
      module: () => {
        throw new TypeError('Invalid URL');
      },
    });
    const error = await failure(p.run(1));
    expect(error.status).toBe(500);
    expect(error.cause.message).toMatch(/load: \(\) => import/);
  });
});

describe('c.threads', () => {
  it('without a pool, c.threads.run answers 503 (the bench route with the pool disabled)', async () => {
    const app = new App();
    app.get('/work', async (c) => c.json(await c.threads.run(1)));
    const res = await app.fetch(new Request('http://localhost/work'));
    expect(res.status).toBe(503);
    expect(await res.json()).toMatchObject({ status: 503, title: 'Service Unavailable' });
  });

  it("handlers reach the app's pool, and pool errors become responses", async () => {
    const { app } = pool();
    app.get('/double', async (c) => c.json(await c.threads.run(Number(c.req.query('n')))));
    app.get('/fail', async (c) => c.json(await c.threads.run(null, { task: 'fail' })));
    expect(await (await app.fetch(new Request('http://localhost/double?n=4'))).json()).toBe(8);
    const res = await app.fetch(new Request('http://localhost/fail'));
    expect(res.status).toBe(500);
    expect(await res.text()).not.toContain('secret detail');
  });

  it('in dev mode the task error message is shown', async () => {
    const p = createThreadPool({ module: 'x', load: async () => tasks });
    const app = new App({ threads: p, dev: true });
    app.get('/fail', async (c) => c.json(await c.threads.run(null, { task: 'fail' })));
    expect(await (await app.fetch(new Request('http://localhost/fail'))).text()).toContain('secret detail');
  });
});
