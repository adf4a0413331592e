import { serve } from '../../adapters/node/index.ts';
import { serveStatic } from '../../adapters/node/static.ts';
import { connectFromUrl } from '../../dev/resp.ts';
import { createBenchApp } from './app.ts';
import { dbRoutesFromEnv } from './db.ts';

// REDIS_URL (the session-read-redis targets): one Redis client for this process.
const app = dbRoutesFromEnv(
  createBenchApp({
    listener: process.env.BENCH_LISTENER === '1',
    threads: process.env.BENCH_WORKERS === '1',
    appLayer: { serveStatic, redis: await connectFromUrl(process.env.REDIS_URL) },
  }),
  (n) => process.env[n],
);
serve(app, {
  port: Number(process.env.PORT ?? 8000),
  hostname: process.env.HOST ?? '127.0.0.1',
  onListen: () => {},
  processes: await groupOf(Number(process.env.BENCH_PROCESSES ?? 1)),
  threads: await threadsOf(process.env.BENCH_WORKERS === '1'),
});

/** The pool's threads (node:worker_threads), loaded only when the app has a pool. */
async function threadsOf(pool: boolean) {
  return pool ? (await import('../../adapters/node/threads.ts')).threads : undefined;
}

/** --processes N: the group is loaded only when asked for, so a one-process run measures none of it. */
async function groupOf(n: number) {
  return n > 1 ? (await import('../../adapters/node/processes.ts')).processGroup(n) : undefined;
}
