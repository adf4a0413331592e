// Cloudflare Workers (the bench runs it under workerd). No file system: routes
// and views come from the manifest (npm run build:routes). Workers have no
// process env at module scope, so the runner's bundler defines the two flags.
import { toWorker } from '../../adapters/cloudflare/index.ts';
import { fileRoutes } from '../../src/fs-routes/index.ts';
import { createViews } from '../../src/views/index.ts';
import { createBenchFsApp } from './app.ts';
import manifest from './routes.gen.ts';

declare const __BENCH_LISTENER__: string | undefined;
declare const __BENCH_WORKERS__: string | undefined;

const app = createBenchFsApp({
  views: createViews({ compiled: manifest.views }),
  listener: typeof __BENCH_LISTENER__ !== 'undefined' && __BENCH_LISTENER__ === '1',
  threads: typeof __BENCH_WORKERS__ !== 'undefined' && __BENCH_WORKERS__ === '1',
});
fileRoutes(app, manifest);

export default toWorker(app);
