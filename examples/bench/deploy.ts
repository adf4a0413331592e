// What Deno Deploy runs: `deno serve --port P examples/bench/deploy.ts`.
import { toDeploy } from '../../adapters/deno-deploy.ts';
import { serveStatic } from '../../adapters/static-deno.ts';
import { createBenchApp } from './app.ts';

export default toDeploy(
  createBenchApp({ listener: Deno.env.get('BENCH_LISTENER') === '1', workers: Deno.env.get('BENCH_WORKERS') === '1', appLayer: { serveStatic } }),
);
