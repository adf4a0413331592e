import { serve } from '../../adapters/deno.ts';
import { serveStatic } from '../../adapters/static-deno.ts';
import { createBenchApp } from './app.ts';

const app = createBenchApp({ listener: Deno.env.get('BENCH_LISTENER') === '1', workers: Deno.env.get('BENCH_WORKERS') === '1', appLayer: { serveStatic } });
serve(app, { port: Number(Deno.env.get('PORT') ?? 8000), hostname: Deno.env.get('HOST') ?? '127.0.0.1', onListen: () => {} });
