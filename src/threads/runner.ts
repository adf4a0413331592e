import { HttpError } from '../core/errors.ts';

export interface RunOptions {
  /** The task module export to call (default `'default'`). */
  task?: string;
}

/** What handlers see as `c.threads`. */
export interface ThreadRunner {
  /** Run a task with a structured-cloned payload; resolves with its structured-cloned result. */
  run<R = unknown>(payload?: unknown, options?: RunOptions): Promise<R>;
}

/** `c.threads` of an app without a pool: every task answers 503, as the route would with the pool disabled. */
export const NO_THREADS: ThreadRunner = {
  run() {
    return Promise.reject(new HttpError(503, 'No thread pool: new App({ threads })'));
  },
};
