// Deno: scan ./routes and read ./views at startup (needs --allow-read), with what rove/fs-routes
// and rove/views are on Deno: Deno's own file API, no node: module.
import '../../adapters/deno/fs-routes.ts'; // installs the scanner fileRoutes(app, dir) uses
import { serve } from '../../adapters/deno/index.ts';
import { createViews } from '../../adapters/deno/views.ts';
import { fileRoutes } from '../../src/fs-routes/index.ts';
import { createBenchFsApp } from './app.ts';

const views = createViews({ dir: new URL('./views/', import.meta.url) });
await views.preload();
const app = createBenchFsApp({ views, listener: Deno.env.get('BENCH_LISTENER') === '1', threads: Deno.env.get('BENCH_WORKERS') === '1' });
await fileRoutes(app, new URL('./routes/', import.meta.url));
serve(app, { port: Number(Deno.env.get('PORT') ?? 8000), hostname: Deno.env.get('HOST') ?? '127.0.0.1', onListen: () => {} });
