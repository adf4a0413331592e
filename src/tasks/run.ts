// One run of one task: its context, its events, its errors and its background work. The same
// code runs a tick on every runtime and a task fired by a test.

import type { Env, ExecutionContext } from '../core/context.ts';
import type { EventBus } from '../core/events.ts';

/**
 * What a task's handler gets: the app's bindings, the tick it runs for, and `waitUntil` for work
 * that may outlive it. Nothing request-shaped.
 */
export interface TaskContext<E extends Env = Env> {
  /** The task's name, as registered. */
  readonly name: string;
  /** The schedule this run is for, as registered (`0 3 * * *`). */
  readonly cron: string;
  /** The minute this run was scheduled for, in epoch milliseconds (UTC). */
  readonly scheduledTime: number;
  /** The app's bindings: Workers' `env`, or the process environment under `serve()`. */
  readonly env: E['Bindings'];
  /**
   * Keep `promise` alive after the handler returns: Workers keep the invocation open, and a
   * server's shutdown waits for it. A rejection is logged.
   */
  waitUntil(promise: Promise<unknown>): void;
}

// biome-ignore lint/suspicious/noConfusingVoidType: a handler may return nothing or a promise
export type TaskHandler<E extends Env = Env> = (t: TaskContext<E>) => void | Promise<unknown>;
// biome-ignore lint/suspicious/noConfusingVoidType: as above
export type TaskErrorHandler<E extends Env = Env> = (error: unknown, t: TaskContext<E>) => void | Promise<unknown>;

/** One registered task. */
export interface Task<E extends Env = Env> {
  readonly name: string;
  readonly cron: string;
  readonly handler: TaskHandler<E>;
}

/**
 * What runs around each task's handler (rove/otel's task spans): it calls `run` once, with the
 * context the handler gets (the same, or one that wraps `waitUntil`), and returns what it returns.
 */
export type TaskAround = (t: TaskContext<any>, run: (t: TaskContext<any>) => Promise<unknown>) => Promise<unknown>;

/** How the host of a run (an adapter, or a test) hands it the app's bindings and keeps its work. */
export interface RunInit {
  env?: unknown;
  /** Default: the current minute. */
  scheduledTime?: number;
  /** Keeps `promise` alive: the platform's `waitUntil`, or the server's shutdown tracking, by label. */
  keep?(promise: Promise<unknown>, label: string): void;
}

/** What a run came to: the handler's error, if it threw, once its background work has settled too. */
export interface TaskOutcome {
  readonly name: string;
  readonly ok: boolean;
  readonly error?: unknown;
}

/**
 * Wait for every promise in `work`, and for those pushed to it while waiting: work handed to
 * waitUntil by other background work joins the wait, as on Workers.
 */
export async function settleAll(work: readonly Promise<unknown>[]): Promise<void> {
  for (let seen = 0; seen < work.length; ) {
    const batch = work.slice(seen);
    seen = work.length;
    await Promise.all(batch);
  }
}

/** The scheduled minute of a tick seen at `now`: every process that sees the tick agrees on it. */
export function tickOf(now: number): number {
  return now - (now % 60_000);
}

/**
 * Run `task` once: events, the handler, its error (to `onError`, else logged once), and its
 * `waitUntil` work. Resolves when the handler has settled; `settled` when its background work
 * has too. Never rejects.
 */
export function runTask<E extends Env>(
  task: Task<E>,
  init: RunInit,
  events: EventBus | undefined,
  onError: TaskErrorHandler<E> | undefined,
  around?: TaskAround,
): { done: Promise<TaskOutcome>; settled: Promise<TaskOutcome> } {
  const work: Promise<unknown>[] = [];
  const keep = init.keep ?? (() => {});
  const scheduledTime = init.scheduledTime ?? tickOf(Date.now());
  const what = { name: task.name, cron: task.cron, scheduledTime };
  const ctx: ExecutionContext = {
    waitUntil: (p) => keep(p, `event listener of task ${task.name}`),
    passThroughOnException() {},
  };
  const t: TaskContext<E> = {
    name: task.name,
    cron: task.cron,
    scheduledTime,
    env: (init.env ?? {}) as E['Bindings'],
    waitUntil(promise) {
      const p = Promise.resolve(promise).then(
        () => {},
        (error) => console.error(`rove: background work of task ${task.name} failed:`, error),
      );
      work.push(p);
      keep(p, `background work of task ${task.name}`);
    },
  };
  events?.emit('task:start', what, ctx);
  const started = Date.now();
  const done = (async (): Promise<TaskOutcome> => {
    try {
      await (around === undefined ? task.handler(t) : around(t, async (inner) => task.handler(inner as TaskContext<E>)));
      events?.emit('task:complete', () => ({ ...what, durationMs: Date.now() - started }), ctx);
      return { name: task.name, ok: true };
    } catch (error) {
      events?.emit('task:error', () => ({ ...what, durationMs: Date.now() - started, error }), ctx);
      await report(error, t, onError);
      return { name: task.name, ok: false, error };
    }
  })();
  keep(done, `task ${task.name}`);
  const settled = done.then(async (outcome) => {
    await settleAll(work);
    return outcome;
  });
  return { done, settled };
}

async function report<E extends Env>(error: unknown, t: TaskContext<E>, onError: TaskErrorHandler<E> | undefined): Promise<void> {
  if (onError === undefined) {
    console.error(`rove: task ${t.name} failed:`, error);
    return;
  }
  try {
    await onError(error, t);
  } catch (failure) {
    console.error(`rove: task ${t.name} failed, and so did its onError:`, failure, { cause: error });
  }
}
