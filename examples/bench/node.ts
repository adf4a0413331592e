import { serve } from '../../adapters/node.ts';
import { serveStatic } from '../../adapters/static-node.ts';
import { createBenchApp } from './app.ts';

const app = createBenchApp({ listener: process.env.BENCH_LISTENER === '1', workers: process.env.BENCH_WORKERS === '1', appLayer: { serveStatic } });
serve(app, { port: Number(process.env.PORT ?? 8000), hostname: process.env.HOST ?? '127.0.0.1', onListen: () => {} });
