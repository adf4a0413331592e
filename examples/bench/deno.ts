import { serve } from '../../adapters/deno/index.ts';
import { serveStatic } from '../../adapters/deno/static.ts';
import { connectFromUrl } from '../../dev/resp.ts';
import { createBenchApp } from './app.ts';
import { dbRoutesFromEnv } from './db.ts';

// REDIS_URL (the session-read-redis targets): one Redis client for this process.
const app = dbRoutesFromEnv(
  createBenchApp({
    listener: Deno.env.get('BENCH_LISTENER') === '1',
    threads: Deno.env.get('BENCH_WORKERS') === '1',
    appLayer: { serveStatic, redis: await connectFromUrl(Deno.env.get('REDIS_URL')) },
  }),
  (n) => Deno.env.get(n),
);
serve(app, {
  port: Number(Deno.env.get('PORT') ?? 8000),
  hostname: Deno.env.get('HOST') ?? '127.0.0.1',
  onListen: () => {},
  processes: await groupOf(Number(Deno.env.get('BENCH_PROCESSES') ?? 1)),
});

/** --processes N: the group (and Deno's Node layer) is loaded only when asked for, so a one-process run measures none of it. */
async function groupOf(n: number) {
  return n > 1 ? (await import('../../adapters/deno/processes.ts')).processGroup(n) : undefined;
}
