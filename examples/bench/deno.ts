import { serve } from '../../adapters/deno/index.ts';
import { serveStatic } from '../../adapters/deno/static.ts';
import { createBenchApp } from './app.ts';
import { dbRoutesFromEnv } from './db.ts';

const app = dbRoutesFromEnv(
  createBenchApp({ listener: Deno.env.get('BENCH_LISTENER') === '1', threads: Deno.env.get('BENCH_WORKERS') === '1', appLayer: { serveStatic } }),
  (n) => Deno.env.get(n),
);
serve(app, {
  port: Number(Deno.env.get('PORT') ?? 8000),
  hostname: Deno.env.get('HOST') ?? '127.0.0.1',
  onListen: () => {},
  processes: Number(Deno.env.get('BENCH_PROCESSES') ?? 1),
});
