// rove/threads: the thread pool. `new App({ threads: createThreadPool({ module }) })`.
export {
  createThreadPool,
  type PoolMode,
  type ThreadEvents,
  type ThreadOptions,
  ThreadPool,
  type ThreadPoolOptions,
  type ThreadPoolStats,
  type ThreadSpawner,
  type WorkerThread,
} from './pool.ts';
export type { TaskModule } from './protocol.ts';
export type { RunOptions, ThreadRunner } from './runner.ts';
