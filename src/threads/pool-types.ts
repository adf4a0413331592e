// The thread pool's public shapes: what an adapter's spawner provides, the options a pool takes,
// and what it reports. The pool itself is in pool.ts.
import type { RunMessage, TaskModule } from './protocol.ts';

/** What a thread tells the pool. A spawner calls these; the pool ignores anything from a thread it already replaced. */
export interface ThreadEvents {
  message(data: unknown): void;
  /** An uncaught error in the thread: the pool treats the thread as crashed. */
  error(error: unknown): void;
  /** The thread stopped on its own. */
  exit(code: number | undefined): void;
}

/** One thread, as the runtime's spawner exposes it. */
export interface WorkerThread {
  post(message: RunMessage): void;
  terminate(): unknown;
  /** Keep the process alive while busy, let it exit while idle (Node). */
  ref?(busy: boolean): void;
}

/** How a thread is started. */
export interface ThreadOptions {
  /** Run the thread below the request thread's OS priority (where the OS allows it). */
  lowPriority: boolean;
}

/** How a runtime starts threads. Adapters pass one to the pool: Node's worker_threads, Deno's and Bun's module Web Workers. */
export interface ThreadSpawner {
  readonly runtime: string;
  /** The thread count used when the pool's `size` is not given (the CPU count). */
  readonly concurrency: number;
  spawn(module: string, name: string, events: ThreadEvents, options?: ThreadOptions): WorkerThread;
}

export interface ThreadPoolOptions {
  /**
   * The task module's URL, for threads: `() => new URL('./tasks.ts', import.meta.url)`.
   * Give a function when the app also runs on Workers, where `import.meta.url` is undefined.
   */
  module: string | URL | (() => string | URL);
  /**
   * How to import the task module in the same isolate, where there are no
   * threads (Cloudflare Workers, Deno Deploy): `() => import('./tasks.ts')`.
   * Bundlers see this import and include the module. Default: `import(module)`.
   */
  load?: () => Promise<TaskModule>;
  /** Threads (default: the CPU count the runtime reports). */
  size?: number;
  /** A task running longer answers 504 and its thread is replaced (default 30 s; 0 = no limit). */
  timeoutMs?: number;
  /** Tasks waiting for a free thread; one more answers 503 with Retry-After (default 1000). */
  maxQueue?: number;
  /** Seconds sent in Retry-After with a full queue (default 1). */
  retryAfterS?: number;
  /**
   * Where the runtime gives no threads: run tasks inline in the same isolate
   * (`'inline'`, the default), or answer 503 (`'reject'`).
   */
  noThreads?: 'inline' | 'reject';
  /**
   * OS scheduling priority of the threads. `'low'` (the default) runs them
   * below the request thread (nice 10), so a saturated pool cannot starve
   * request handling of CPU; `'normal'` gives them equal priority. (Deno
   * needs `--allow-sys=setPriority` for `'low'`; without it threads stay normal.)
   */
  priority?: 'low' | 'normal';
  /** Names the pool in events (default `'default'`). */
  name?: string;
}

export type PoolMode = 'pending' | 'threads' | 'inline' | 'reject' | 'closed';

export interface ThreadPoolStats {
  mode: PoolMode;
  size: number;
  alive: number;
  busy: number;
  queued: number;
  completed: number;
  failed: number;
  timeouts: number;
  crashes: number;
  respawns: number;
  rejected: number;
}
