// On Node the pool's threads are passed in (`threads` from rove/node/threads), so an app without a
// pool loads no node:worker_threads. An app with a pool and no threads is refused when served, with
// the import to add, never left to run every task inline on the request thread.
import { createServer } from 'node:http';
import { describe, expect, it } from 'vitest';
import { serve, toNodeListener } from '../../../adapters/node/index.ts';
import { threads } from '../../../adapters/node/threads.ts';
import { App } from '../../../src/core/app.ts';
import { createThreadPool } from '../../../src/threads/index.ts';

const TASKS = new URL('../../../examples/threads/tasks.ts', import.meta.url);
const quiet = { port: 0, hostname: '127.0.0.1', onListen: () => {}, handleSignals: false } as const;

function pooled() {
  const pool = createThreadPool({ module: TASKS, size: 1 });
  const app = new App({ threads: pool });
  app.get('/echo', async (c) => c.json(await c.threads.run({ a: 1 }, { task: 'echo' })));
  return { app, pool };
}

describe('threads on Node', () => {
  it('serve() refuses an app with a pool and no threads, naming the import', () => {
    const { app, pool } = pooled();
    expect(() => serve(app, quiet)).toThrow(TypeError);
    expect(() => serve(app, quiet)).toThrow("import { threads } from 'rove/node/threads'");
    expect(pool.mode).toBe('pending');
  });

  it('toNodeListener() refuses a pool nobody started, and takes one started with pool.start(threads)', async () => {
    const { app, pool } = pooled();
    expect(() => toNodeListener(app)).toThrow('pool.start(threads)');
    pool.start(threads);
    expect(pool.mode).toBe('threads');
    expect(() => createServer(toNodeListener(app))).not.toThrow();
    await pool.close();
  });

  it('serve() refuses a value that is not the threads', () => {
    const { app } = pooled();
    // @ts-expect-error: threads takes the value from rove/node/threads
    expect(() => serve(app, { ...quiet, threads: 4 })).toThrow('rove/node/threads');
  });

  it('serve(app, { threads }) starts the pool on node:worker_threads', async () => {
    const { app, pool } = pooled();
    const server = serve(app, { ...quiet, threads });
    try {
      await server.ready;
      expect(pool.mode).toBe('threads');
      expect(pool.stats.size).toBe(1);
      const res = await fetch(`${server.url}echo`);
      expect(res.status).toBe(200);
      expect(await res.json()).toEqual({ a: 1 });
    } finally {
      await server.close();
    }
    expect(pool.mode).toBe('closed');
  });

  it('an app without a pool needs no threads', async () => {
    const app = new App();
    app.get('/', (c) => c.text('ok'));
    const server = serve(app, quiet);
    await server.ready;
    await server.close();
  });

  it('threads reads the CPU count when a pool starts, not when it loads', () => {
    expect(Object.getOwnPropertyDescriptor(threads, 'concurrency')?.get).toBeTypeOf('function');
    expect(threads.concurrency).toBeGreaterThanOrEqual(1);
  });
});
