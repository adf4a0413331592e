import { serve } from '../../adapters/bun/index.ts';
import { serveStatic } from '../../adapters/bun/static.ts';
import { connectFromUrl } from '../../dev/resp.ts';
import { createBenchApp } from './app.ts';
import { dbRoutesFromEnv } from './db.ts';

// REDIS_URL (the session-read-redis targets): one Redis client for this process.
const app = dbRoutesFromEnv(
  createBenchApp({
    listener: Bun.env.BENCH_LISTENER === '1',
    threads: Bun.env.BENCH_WORKERS === '1',
    appLayer: { serveStatic, redis: await connectFromUrl(Bun.env.REDIS_URL) },
  }),
  (n) => Bun.env[n],
);
serve(app, {
  port: Number(Bun.env.PORT ?? 8000),
  hostname: Bun.env.HOST ?? '127.0.0.1',
  onListen: () => {},
  processes: await groupOf(Number(Bun.env.BENCH_PROCESSES ?? 1)),
});

/** --processes N: the group is loaded only when asked for, so a one-process run measures none of it. */
async function groupOf(n: number) {
  return n > 1 ? (await import('../../adapters/bun/processes.ts')).processGroup(n) : undefined;
}
