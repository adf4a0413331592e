// rove/workers: the worker pool. `new App({ workers: createWorkerPool({ module }) })`.
export {
  createWorkerPool,
  type PoolMode,
  type ThreadEvents,
  type ThreadOptions,
  WorkerPool,
  type WorkerPoolOptions,
  type WorkerPoolStats,
  type WorkerSpawner,
  type WorkerThread,
} from './pool.ts';
export type { TaskModule } from './protocol.ts';
export type { RunOptions, WorkerRunner } from './runner.ts';
