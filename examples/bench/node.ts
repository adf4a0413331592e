import { serve } from '../../adapters/node/index.ts';
import { serveStatic } from '../../adapters/node/static.ts';
import { createBenchApp } from './app.ts';
import { dbRoutesFromEnv } from './db.ts';

const app = dbRoutesFromEnv(
  createBenchApp({ listener: process.env.BENCH_LISTENER === '1', threads: process.env.BENCH_WORKERS === '1', appLayer: { serveStatic } }),
  (n) => process.env[n],
);
serve(app, {
  port: Number(process.env.PORT ?? 8000),
  hostname: process.env.HOST ?? '127.0.0.1',
  onListen: () => {},
  processes: Number(process.env.BENCH_PROCESSES ?? 1),
});
