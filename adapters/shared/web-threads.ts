// Thread pool threads on Deno and Bun: module Web Workers.
import type { ThreadSpawner, WorkerThread } from '../../src/threads/pool.ts';
import type { RunMessage } from '../../src/threads/protocol.ts';

// Resolved when the first thread starts, not at load: most apps never start one.
const threadEntry = (): string => new URL(import.meta.url.endsWith('.ts') ? './web-thread-entry.ts' : './web-thread-entry.js', import.meta.url).href;

// Bun's Worker adds these to the standard one.
interface BunWorkerExtras {
  ref?(): void;
  unref?(): void;
}

/**
 * The spawner for runtimes with module Web Workers (Deno, Bun).
 *
 * Deno (2.9): terminate() does not stop a thread stuck in synchronous code
 * (a loop that never yields); the thread runs on until its code returns
 * (denoland/deno#35657). The pool still answers 504 and serves from a fresh
 * thread, but the old one keeps a core busy meanwhile. Bun and Node stop it.
 */
export function webThreads(runtime: string): ThreadSpawner {
  return {
    runtime,
    concurrency: navigator.hardwareConcurrency || 1,
    spawn(module, name, events, options): WorkerThread {
      const worker = new Worker(threadEntry(), { type: 'module', name }) as Worker & BunWorkerExtras;
      worker.onmessage = (event) => events.message(event.data);
      worker.onerror = (event) => {
        // Unhandled, Deno would rethrow the thread's error in the main thread and exit.
        event.preventDefault();
        events.error(event.error ?? new Error(event.message));
      };
      worker.onmessageerror = () => events.error(new Error('A message from the worker could not be deserialized'));
      // Bun tells when a thread exits (process.exit in the task, a fatal error, terminate()); Deno does not.
      let closed: () => void = () => {};
      const gone = new Promise<void>((resolve) => (closed = resolve));
      worker.addEventListener('close', (event) => {
        closed();
        events.exit((event as Event & { code?: number }).code);
      });
      // nice 10, as on Node (node/threads.ts LOW_PRIORITY): the request thread wins the CPU about nine times in ten.
      worker.postMessage({ t: 'init', module, lowPriority: options?.lowPriority ? 10 : 0 });
      return {
        post: (message: RunMessage) => worker.postMessage(message),
        terminate: () => {
          worker.terminate();
          // Where the runtime reports the end, shutdown waits for it (bounded).
          if (runtime !== 'bun') return undefined;
          let timer: ReturnType<typeof setTimeout> | undefined;
          return Promise.race([gone, new Promise<void>((resolve) => (timer = setTimeout(resolve, 1000)))]).finally(() => clearTimeout(timer));
        },
        ref: worker.unref ? (busy) => (busy ? worker.ref!() : worker.unref!()) : undefined,
      };
    },
  };
}
