import { Cron } from 'croner';
import type { Env } from '../core/context.ts';
import type { EventBus } from '../core/events.ts';
import type { TaskLock } from './lock.ts';
import { type RunInit, runTask, type Task, type TaskAround, type TaskErrorHandler, type TaskHandler, type TaskOutcome, tickOf } from './run.ts';
import { portableSchedule } from './schedule.ts';

/** Deno's cron rule for names without its whitespace (names go into log lines and lock keys), on every runtime. */
const NAME = /^[A-Za-z0-9_-]{1,64}$/;

export interface TaskListOptions {
  /**
   * Where processes agree that one of them runs each tick: `redisLock(client)` or `kvLock(kv)`.
   * Without one, every process that runs the schedule runs every tick (Workers and Deno Deploy
   * run a trigger once; see docs/scheduling.md).
   */
  lock?: TaskLock;
  /** How long a tick's lock is held (default 10 minutes): longer than clocks disagree. */
  lockTtlMs?: number;
}

/** How an adapter runs the schedule with timers (Node and Bun): the app's bindings and where work is kept. */
export interface TimerInit {
  env: unknown;
  keep(promise: Promise<unknown>, label: string): void;
}

/**
 * An app's scheduled tasks: give it to `new App({ tasks })`, and every adapter runs them. Workers
 * through `toWorker(app)`'s `scheduled` (list the schedules in wrangler.toml: `npx rove crons`),
 * Deno through `Deno.cron` (run with `--unstable-cron`), Node and Bun with timers (croner), all
 * in UTC.
 *
 * @example
 * import { App } from 'rove';
 * import { tasks } from 'rove/tasks';
 *
 * const jobs = tasks<{ Bindings: { DB: Database } }>().cron('cleanup', '0 3 * * *', async (t) => {
 *   await t.env.DB.deleteExpired(t.scheduledTime);
 *   t.waitUntil(audit('cleanup ran'));
 * });
 * const app = new App({ tasks: jobs });
 * // in a vitest test, without waiting for 3 a.m.:
 * await jobs.fire('cleanup', { env: { DB: testDb } });
 */
export class TaskList<E extends Env = Env> {
  readonly #tasks: Task<E>[] = [];
  readonly #lock: TaskLock | undefined;
  readonly #lockTtl: number;
  #onError: TaskErrorHandler<E> | undefined;
  #events: EventBus | undefined;
  #around: TaskAround | undefined;

  constructor(options: TaskListOptions = {}) {
    if (options.lock !== undefined && typeof options.lock?.acquire !== 'function') throw new TypeError('tasks(): lock takes redisLock(…) or kvLock(…)');
    const ttl = options.lockTtlMs ?? 600_000;
    if (!Number.isSafeInteger(ttl) || ttl < 1000) throw new TypeError('tasks(): lockTtlMs is a whole number of milliseconds, at least 1000');
    this.#lock = options.lock;
    this.#lockTtl = ttl;
  }

  /**
   * Run `handler` on `schedule` (five fields, UTC; weekdays named SUN–SAT). `name` is unique, of
   * letters, digits, `-` and `_` (within what Deno.cron allows); it names the task in logs and events.
   * A schedule outside what every platform reads alike throws here.
   *
   * @example
   * jobs.cron('weekly-report', '0 8 * * MON', (t) => sendReport(t.env));
   */
  cron(name: string, schedule: string, handler: TaskHandler<E>): this {
    if (typeof name !== 'string' || !NAME.test(name)) throw new TypeError(`cron(): the name ${JSON.stringify(name)} is not 1–64 letters, digits, - or _`);
    if (this.#tasks.some((t) => t.name === name)) throw new TypeError(`cron(): a task named ${name} is already registered`);
    if (typeof handler !== 'function') throw new TypeError(`cron(): ${name} needs a handler function`);
    const cron = portableSchedule(schedule);
    // croner reads it too, so Node and Bun will not refuse what was accepted here.
    new Cron(cron, { paused: true, timezone: 'UTC' }).stop();
    this.#tasks.push({ name, cron, handler });
    return this;
  }

  /**
   * What a task's thrown error goes to, in place of the default log line (`rove: task <name>
   * failed: …`), as `app.onError` for requests.
   *
   * @example
   * jobs.onError((error, t) => reportToSentry(error, { task: t.name }));
   */
  onError(handler: TaskErrorHandler<E>): this {
    this.#onError = handler;
    return this;
  }

  /** The registered tasks, in order. */
  get tasks(): readonly Task<E>[] {
    return this.#tasks;
  }

  /** Each schedule once, in registration order: what wrangler.toml's `[triggers] crons` lists. */
  get schedules(): string[] {
    return [...new Set(this.#tasks.map((t) => t.cron))];
  }

  /** For `new App({ tasks })`: the app's event bus, which task events go to. A list serves one app. */
  attach(events: EventBus): void {
    if (this.#events !== undefined && this.#events !== events) throw new TypeError('tasks(): this task list is already given to another app');
    this.#events = events;
  }

  /**
   * For tracing (`otel(app)` from 'rove/otel' calls it): `around` runs around every task's
   * handler, fired or ticked. A second call replaces the first.
   *
   * @example
   * jobs.instrument(async (t, run) => { const start = Date.now(); try { return await run(t); } finally { record(t.name, Date.now() - start); } });
   */
  instrument(around: TaskAround): this {
    this.#around = around;
    return this;
  }

  /**
   * Run one task now, as a test does: no lock, the current minute (or `scheduledTime`), and
   * resolve once the handler and its `waitUntil` work have settled. Errors still go to `onError`
   * or the log.
   *
   * @example
   * const outcome = await jobs.fire('cleanup', { env });
   * expect(outcome.ok).toBe(true);
   */
  fire(name: string, init: RunInit = {}): Promise<TaskOutcome> {
    const task = this.#tasks.find((t) => t.name === name);
    if (task === undefined)
      return Promise.reject(new TypeError(`fire(): no task named ${JSON.stringify(name)}; there are ${this.#tasks.map((t) => t.name).join(', ') || 'none'}`));
    return runTask(task, init, this.#events, this.#onError, this.#around).settled;
  }

  /**
   * One tick of `schedule`, from a platform trigger (Workers' `controller.cron`, Deno.cron) or a
   * timer: every task on that schedule (or the one named `only`), each behind the lock when there
   * is one. Resolves when their handlers have settled; their `waitUntil` work goes to `init.keep`.
   */
  async tick(schedule: string, init: RunInit, only?: string): Promise<TaskOutcome[]> {
    const cron = this.#tasks.some((t) => t.cron === schedule) ? schedule : normalised(schedule);
    const due = this.#tasks.filter((t) => t.cron === cron && (only === undefined || t.name === only));
    if (due.length === 0) {
      console.error(
        `rove: a trigger for ${JSON.stringify(schedule)} arrived, and no task has that schedule (${this.schedules.join(', ') || 'none'}): check wrangler.toml's [triggers] with npx rove crons`,
      );
      return [];
    }
    const scheduledTime = tickOf(init.scheduledTime ?? Date.now());
    const runs = due.map((task) => this.#tickOne(task, { ...init, scheduledTime }));
    return (await Promise.all(runs)).filter((o): o is TaskOutcome => o !== undefined);
  }

  async #tickOne(task: Task<E>, init: RunInit & { scheduledTime: number }): Promise<TaskOutcome | undefined> {
    if (this.#lock !== undefined && !(await this.#acquire(task, init.scheduledTime))) return undefined;
    return runTask(task, init, this.#events, this.#onError, this.#around).done;
  }

  async #acquire(task: Task<E>, scheduledTime: number): Promise<boolean> {
    const what = { name: task.name, cron: task.cron, scheduledTime };
    try {
      if (await withDeadline(this.#lock!.acquire(`${task.name}:${scheduledTime}`, this.#lockTtl), LOCK_WAIT_MS)) return true;
      this.#events?.emit('task:skipped', { ...what, reason: 'locked', error: undefined });
    } catch (error) {
      // Running without the lock could run the tick twice: skip it, and say so.
      console.error(`rove: task ${task.name} skipped: its lock store failed:`, error);
      this.#events?.emit('task:skipped', { ...what, reason: 'lock-failed', error });
    }
    return false;
  }

  /**
   * For adapters on runtimes without a platform scheduler (Node, Bun): run every schedule with
   * timers, in UTC. Returns the function that stops them; runs already going continue.
   */
  start(init: TimerInit): () => void {
    const timers = this.schedules.map(
      (schedule) =>
        // tick() never rejects; each task it runs is kept by name.
        new Cron(schedule, { timezone: 'UTC' }, () => void this.tick(schedule, { env: init.env, keep: init.keep })),
    );
    return () => {
      for (const timer of timers) timer.stop();
    };
  }
}

/** How long a tick waits for its lock store before it counts as failed. */
const LOCK_WAIT_MS = 10_000;

/** `promise`, or a rejection once `ms` have passed. */
function withDeadline<T>(promise: Promise<T>, ms: number): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`no answer in ${ms} ms`)), ms);
  });
  return Promise.race([promise, late]).finally(() => clearTimeout(timer));
}

/** A trigger's cron as registered (wrangler.toml may write `mon` for `MON`), or as it came. */
function normalised(schedule: string): string {
  try {
    return portableSchedule(schedule);
  } catch {
    return schedule;
  }
}

/**
 * A new, empty list of scheduled tasks for `new App({ tasks })`.
 *
 * @example
 * const jobs = tasks().cron('cleanup', '0 3 * * *', (t) => removeExpired(t.env));
 * const app = new App({ tasks: jobs });
 */
export function tasks<E extends Env = Env>(options: TaskListOptions = {}): TaskList<E> {
  return new TaskList<E>(options);
}
