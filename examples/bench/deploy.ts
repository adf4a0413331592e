// What Deno Deploy runs: `deno serve --port P examples/bench/deploy.ts`.
import { serveStatic } from '../../adapters/deno/static.ts';
import { toDeploy } from '../../adapters/deno-deploy/index.ts';
import { createBenchApp } from './app.ts';
import { dbRoutesFromEnv } from './db.ts';

export default toDeploy(
  dbRoutesFromEnv(
    createBenchApp({ listener: Deno.env.get('BENCH_LISTENER') === '1', threads: Deno.env.get('BENCH_WORKERS') === '1', appLayer: { serveStatic } }),
    (n) => Deno.env.get(n),
  ),
);
