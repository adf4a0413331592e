// rove/workers: the worker pool. `new App({ workers: createWorkerPool({ module }) })`.
export {
  createWorkerPool,
  WorkerPool,
  type PoolMode,
  type WorkerPoolOptions,
  type WorkerPoolStats,
  type WorkerSpawner,
  type WorkerThread,
  type ThreadEvents,
  type ThreadOptions,
} from './pool.ts';
export type { RunOptions, WorkerRunner } from './runner.ts';
export type { TaskModule } from './protocol.ts';
