// What Deno Deploy runs: `deno serve --port P examples/bench-fs/deploy.ts`.
// No file system: routes and views come from the manifest (npm run build:routes).
import { toDeploy } from '../../adapters/deno-deploy/index.ts';
import { fileRoutes } from '../../src/fs-routes/index.ts';
import { createViews } from '../../src/views/index.ts';
import { createBenchFsApp } from './app.ts';
import manifest from './routes.gen.ts';

const app = createBenchFsApp({
  views: createViews({ compiled: manifest.views }),
  listener: Deno.env.get('BENCH_LISTENER') === '1',
  threads: Deno.env.get('BENCH_WORKERS') === '1',
});
fileRoutes(app, manifest);

export default toDeploy(app);
