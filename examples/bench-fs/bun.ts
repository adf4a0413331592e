// Bun: scan ./routes and read ./views at startup.
import { fileURLToPath } from 'node:url';
import '../../adapters/shared/fs-routes.ts'; // installs the scanner fileRoutes(app, dir) uses
import { serve } from '../../adapters/bun/index.ts';
import { createViews } from '../../adapters/shared/views-fs.ts';
import { fileRoutes } from '../../src/fs-routes/index.ts';
import { createBenchFsApp } from './app.ts';

const views = createViews({ dir: fileURLToPath(new URL('./views/', import.meta.url)) });
await views.preload();
const app = createBenchFsApp({ views, listener: Bun.env.BENCH_LISTENER === '1', threads: Bun.env.BENCH_WORKERS === '1' });
await fileRoutes(app, new URL('./routes/', import.meta.url));
serve(app, { port: Number(Bun.env.PORT ?? 8000), hostname: Bun.env.HOST ?? '127.0.0.1', onListen: () => {} });
