// The bench app (docs/benchmarks/README.md) as a routes directory: each route is a
// file under ./routes, the way the seed framework's benchmark/routes/*.ts are
// laid out; /chain and /params get their middleware from `_middleware.ts`.
// This module makes the app without routes: the Node, Deno and Bun entries
// scan ./routes at startup, the Workers and Deploy entries register the
// manifest `npm run build:routes` writes (routes.gen.ts).

import { installListenerToggle } from '../../bench/shared/listener-toggle.ts';
import { App, type ViewRenderer } from '../../src/index.ts';
import { createThreadPool } from '../../src/threads/index.ts';

export interface BenchFsAppOptions {
  views: ViewRenderer;
  /** Attach one empty event listener (the `listener` scenario), as examples/bench does. */
  listener?: boolean;
  /** Give the app a thread pool (the `test-worker` scenario); without one /test-worker answers 503. */
  threads?: boolean;
}

export function createBenchFsApp(options: BenchFsAppOptions) {
  const threads = options.threads
    ? createThreadPool({
        // A function: on Workers import.meta.url is undefined; there the pool runs tasks inline.
        module: () => new URL('./tasks.ts', import.meta.url),
        load: () => import('./tasks.ts'),
        // As examples/bench: the default profile keeps 1,000 requests in flight, and the queue must hold them.
        maxQueue: 4096,
      })
    : undefined;
  const app = new App({ views: options.views, ...(threads ? { threads } : {}) } as ConstructorParameters<typeof App>[0]);
  // One empty listener, switched off and on by the runner between rounds (bench/shared/listener-toggle.ts).
  if (options.listener) installListenerToggle(app);
  return app;
}
