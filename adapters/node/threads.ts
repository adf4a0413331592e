// rove/node/threads: the thread pool's threads on Node, node:worker_threads. Passed in as
// serve(app, { threads }), so an app without a pool loads none of this (no node:worker_threads,
// node:os, node:module) and a Node bundle of it holds none of it.
import { createRequire } from 'node:module';
import { availableParallelism } from 'node:os';
import { dirname, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { Worker } from 'node:worker_threads';
import type { ThreadSpawner, WorkerThread } from '../../src/threads/pool.ts';
import type { RunMessage } from '../../src/threads/protocol.ts';

export type { ThreadSpawner } from '../../src/threads/pool.ts';

const SOURCE = import.meta.url.endsWith('.ts');
/** The nice value of low-priority threads: the request thread (0) wins the CPU about nine times in ten. */
export const LOW_PRIORITY = 10;
const ENTRY = new URL(SOURCE ? './thread-entry.ts' : './thread-entry.js', import.meta.url).href;

/**
 * Node 20's module hooks (how tsx runs TypeScript) reach only the main
 * thread. So a thread that meets a .ts file it cannot load registers tsx in
 * itself and imports the file again under a new URL (a failed import is
 * cached). It loads the task module first, then the entry, which serves tasks.
 */
const BOOT = `
const { workerData } = require('node:worker_threads');
if (workerData.lowPriority) {
  // Linux: the calling thread only. Elsewhere it may be refused, which changes nothing else.
  try { require('node:os').setPriority(workerData.lowPriority); } catch {}
}
let registered = false;
async function load(url) {
  try {
    await import(url);
    return url;
  } catch (error) {
    if (error?.code !== 'ERR_UNKNOWN_FILE_EXTENSION' || !workerData.tsx) throw error;
    if (!registered) {
      registered = true;
      const api = await import(workerData.tsx);
      (api.register ?? api.default.register)();
    }
    const again = url + (url.includes('?') ? '&' : '?') + 'ts';
    await import(again);
    return again;
  }
}
(async () => {
  try {
    workerData.module = await load(workerData.module);
  } catch {
    // the entry reports a module that fails to load to every task
  }
  await load(workerData.entry);
})();
`;

let tsx: string | null | undefined;
/** tsx's ESM register API, when tsx is installed: what a thread needs to load .ts files on Node 20. */
function tsxApi(): string | null {
  if (tsx !== undefined) return tsx;
  try {
    tsx = import.meta.resolve('tsx/esm/api');
  } catch {
    // Code tsx runs as CommonJS has no import.meta.resolve: read the ESM entry from tsx's exports map.
    try {
      const require = createRequire(import.meta.url);
      const manifest = require.resolve('tsx/package.json');
      const target = (require(manifest) as { exports: Record<string, { import?: { default?: string } }> }).exports['./esm/api'].import!.default!;
      tsx = pathToFileURL(join(dirname(manifest), target)).href;
    } catch {
      tsx = null;
    }
  }
  return tsx;
}

/**
 * Threads for the app's pool on Node: one node:worker_threads Worker per pool thread (idle
 * threads don't keep the process alive). Pass it to `serve()`, which starts the pool with it; an
 * app with a pool (`new App({ threads })`) served on Node without it makes `serve()` throw.
 *
 * @example
 * import { serve } from 'rove/node';
 * import { threads } from 'rove/node/threads';
 * serve(app, { port: 8000, threads });
 * // a server of your own: start the pool yourself, before toNodeListener(app)
 * pool.start(threads);
 */
export const threads: ThreadSpawner = {
  runtime: 'node',
  // Read when a pool starts, not when this module loads.
  get concurrency() {
    return availableParallelism();
  },
  spawn(module, name, events, options): WorkerThread {
    const loader = SOURCE || module.endsWith('.ts') ? tsxApi() : null;
    const worker = new Worker(BOOT, {
      eval: true,
      name,
      workerData: { entry: ENTRY, module, tsx: loader, lowPriority: options?.lowPriority ? LOW_PRIORITY : 0 },
    });
    worker.on('message', (data) => events.message(data));
    worker.on('error', (error) => events.error(error));
    worker.on('exit', (code) => events.exit(code));
    return {
      post: (message: RunMessage) => worker.postMessage(message),
      terminate: () => worker.terminate(),
      ref: (busy) => (busy ? worker.ref() : worker.unref()),
    };
  },
};
