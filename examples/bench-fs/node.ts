// Node: scan ./routes and read ./views at startup.
import { fileURLToPath } from 'node:url';
import '../../adapters/shared/fs-routes.ts'; // installs the scanner fileRoutes(app, dir) uses
import { serve } from '../../adapters/node/index.ts';
import { createViews } from '../../adapters/shared/views-fs.ts';
import { fileRoutes } from '../../src/fs-routes/index.ts';
import { createBenchFsApp } from './app.ts';

const views = createViews({ dir: fileURLToPath(new URL('./views/', import.meta.url)) });
await views.preload();
const pool = process.env.BENCH_WORKERS === '1';
const app = createBenchFsApp({ views, listener: process.env.BENCH_LISTENER === '1', threads: pool });
await fileRoutes(app, new URL('./routes/', import.meta.url));
// The pool's threads (node:worker_threads) are passed in, and loaded only when the app has a pool.
const threads = pool ? (await import('../../adapters/node/threads.ts')).threads : undefined;
serve(app, { port: Number(process.env.PORT ?? 8000), hostname: process.env.HOST ?? '127.0.0.1', onListen: () => {}, threads });
