import { HttpError } from '../core/errors.ts';
import type { EventBus } from '../core/events.ts';
import type { PoolMode, ThreadPoolOptions, ThreadPoolStats, ThreadSpawner, WorkerThread } from './pool-types.ts';
import { type ReplyMessage, type SerializedError, serializeError, type TaskModule } from './protocol.ts';
import type { RunOptions, ThreadRunner } from './runner.ts';

export type { PoolMode, ThreadEvents, ThreadOptions, ThreadPoolOptions, ThreadPoolStats, ThreadSpawner, WorkerThread } from './pool-types.ts';

interface Slot {
  id: number;
  thread: WorkerThread | null;
  task: Task | null;
  dead: boolean;
}

interface Task {
  id: number;
  task: string;
  payload: unknown;
  resolve(value: unknown): void;
  reject(error: unknown): void;
  timer: ReturnType<typeof setTimeout> | undefined;
  slot: Slot | null;
}

/**
 * A pool of threads running tasks from one module. The runtime-neutral part:
 * queueing, timeouts, crash replacement and events. Threads come from the
 * spawner an adapter gives to `start()`; a pool never started (Workers, Deno
 * Deploy) runs tasks inline, or refuses them, on first use.
 */
export class ThreadPool implements ThreadRunner {
  readonly name: string;
  readonly timeoutMs: number;
  readonly maxQueue: number;
  #options: ThreadPoolOptions;
  #mode: PoolMode = 'pending';
  #size = 0;
  #spawner: ThreadSpawner | undefined;
  #url = '';
  #events: EventBus | undefined;
  #slots: Slot[] = [];
  #idle: Slot[] = [];
  #queue: Task[] = [];
  #respawnTimers = new Set<ReturnType<typeof setTimeout>>();
  #nextTask = 1;
  #nextThread = 1;
  #crashStreak = 0;
  #inflight = 0;
  #loaded: Promise<TaskModule> | undefined;
  #closing: Promise<void> | undefined;
  #stats = { completed: 0, failed: 0, timeouts: 0, crashes: 0, respawns: 0, rejected: 0 };

  constructor(options: ThreadPoolOptions) {
    if (!options || options.module === undefined)
      throw new TypeError('createThreadPool needs the task module: { module: () => new URL("./tasks.ts", import.meta.url) }');
    this.#options = options;
    this.name = options.name ?? 'default';
    this.timeoutMs = options.timeoutMs ?? 30_000;
    this.maxQueue = options.maxQueue ?? 1000;
    if (!(this.timeoutMs >= 0)) throw new RangeError('timeoutMs must be 0 or more');
    if (!(this.maxQueue >= 0)) throw new RangeError('maxQueue must be 0 or more');
    if (options.size !== undefined && !(options.size >= 1)) throw new RangeError('size must be at least 1');
  }

  get mode(): PoolMode {
    return this.#mode;
  }

  get stats(): ThreadPoolStats {
    let busy = 0;
    for (const s of this.#slots) if (s.task !== null) busy++;
    return {
      mode: this.#mode,
      size: this.#size,
      alive: this.#slots.length,
      busy: this.#mode === 'inline' ? this.#inflight : busy,
      queued: this.#queue.length,
      ...this.#stats,
    };
  }

  /** The app's event bus; the app sets it. */
  attach(events: EventBus): void {
    this.#events = events;
  }

  /** Start the threads. Adapters call it with their runtime's spawner; a second call does nothing. */
  start(spawner: ThreadSpawner): void {
    if (this.#spawner !== undefined || this.#mode === 'closed') return;
    this.#spawner = spawner;
    const m = this.#options.module;
    this.#url = String(typeof m === 'function' ? m() : m);
    this.#size = Math.floor(this.#options.size ?? Math.max(1, spawner.concurrency));
    this.#mode = 'threads';
    for (let i = 0; i < this.#size; i++) {
      const slot = this.#spawn();
      if (slot !== null) this.#next(slot);
    }
  }

  run<R = unknown>(payload?: unknown, options?: RunOptions): Promise<R> {
    const task = options?.task ?? 'default';
    if (this.#mode === 'pending') this.#mode = this.#options.noThreads === 'reject' ? 'reject' : 'inline';
    switch (this.#mode) {
      case 'threads':
        return this.#enqueue(task, payload) as Promise<R>;
      case 'inline':
        return this.#inline(task, payload) as Promise<R>;
      case 'reject':
        return this.#refuse(task, 'no-threads', 'This runtime has no threads for the thread pool');
      default:
        return this.#refuse(task, 'closed', 'The thread pool is shut down');
    }
  }

  /** Terminate every thread; queued and running tasks answer 503. Resolves once the threads are gone. */
  close(): Promise<void> {
    return (this.#closing ??= this.#close());
  }

  async #close(): Promise<void> {
    this.#mode = 'closed';
    for (const t of this.#respawnTimers) clearTimeout(t);
    this.#respawnTimers.clear();
    const gone = (task: Task) => {
      clearTimeout(task.timer);
      task.reject(new HttpError(503, 'The thread pool is shutting down'));
    };
    for (const task of this.#queue.splice(0)) gone(task);
    const ending: unknown[] = [];
    for (const slot of this.#slots.splice(0)) {
      slot.dead = true;
      if (slot.task !== null) gone(slot.task);
      slot.task = null;
      ending.push(terminate(slot.thread));
    }
    this.#idle.length = 0;
    await Promise.allSettled(ending);
  }

  #refuse(task: string, reason: 'queue-full' | 'no-threads' | 'closed', message: string, headers?: HeadersInit): Promise<never> {
    this.#stats.rejected++;
    this.#events?.emit('thread:rejected', { pool: this.name, task, reason, queued: this.#queue.length, maxQueue: this.maxQueue });
    return Promise.reject(new HttpError(503, message, { headers }));
  }

  #enqueue(name: string, payload: unknown): Promise<unknown> {
    const slot = this.#idle.pop();
    if (slot === undefined && this.#queue.length >= this.maxQueue) {
      return this.#refuse(name, 'queue-full', 'The thread pool queue is full', { 'retry-after': String(this.#options.retryAfterS ?? 1) });
    }
    return new Promise((resolve, reject) => {
      const task: Task = { id: this.#nextTask++, task: name, payload, resolve, reject, timer: undefined, slot: null };
      if (slot !== undefined) this.#dispatch(slot, task);
      else this.#queue.push(task);
    });
  }

  #dispatch(slot: Slot, task: Task): void {
    slot.task = task;
    task.slot = slot;
    try {
      slot.thread!.post({ t: 'run', id: task.id, task: task.task, payload: task.payload });
    } catch (error) {
      // Nothing reached the thread: the payload could not be cloned.
      slot.task = null;
      task.slot = null;
      this.#stats.failed++;
      task.reject(new HttpError(500, `The task's payload cannot be cloned: ${(error as Error)?.message ?? error}`, { cause: error }));
      this.#next(slot);
      return;
    }
    task.payload = undefined;
    if (this.timeoutMs > 0) task.timer = setTimeout(() => this.#onTimeout(task), this.timeoutMs);
    slot.thread!.ref?.(true);
  }

  /** A free thread takes the next queued task, or waits. */
  #next(slot: Slot): void {
    if (slot.dead) return;
    const task = this.#queue.shift();
    if (task !== undefined) {
      this.#dispatch(slot, task);
      return;
    }
    this.#idle.push(slot);
    slot.thread!.ref?.(false);
  }

  #onMessage(slot: Slot, data: unknown): void {
    const m = data as ReplyMessage;
    const task = slot.task;
    if (slot.dead || task === null || m === null || typeof m !== 'object' || m.id !== task.id) return;
    clearTimeout(task.timer);
    slot.task = null;
    task.slot = null;
    if (m.t === 'done') {
      this.#stats.completed++;
      this.#crashStreak = 0;
      task.resolve(m.result);
    } else {
      this.#stats.failed++;
      task.reject(taskError(m.error));
    }
    this.#next(slot);
  }

  #onTimeout(task: Task): void {
    const slot = task.slot;
    if (slot === null || slot.task !== task) return;
    this.#stats.timeouts++;
    slot.task = null;
    task.slot = null;
    task.reject(new HttpError(504, `Task "${task.task}" ran longer than ${this.timeoutMs} ms`));
    this.#events?.emit('thread:timeout', { pool: this.name, threadId: slot.id, taskId: task.id, task: task.task, timeoutMs: this.timeoutMs });
    // The thread may be stuck in a loop: only terminating it frees it.
    this.#replace(slot, 'timeout');
  }

  #onCrash(slot: Slot, error: unknown, exitCode: number | undefined): void {
    if (slot.dead) return;
    this.#stats.crashes++;
    this.#crashStreak++;
    const task = slot.task;
    slot.task = null;
    if (task !== null) {
      clearTimeout(task.timer);
      task.slot = null;
      task.reject(new HttpError(500, 'The thread crashed while running the task', { cause: error }));
    }
    this.#events?.emit('thread:crash', { pool: this.name, threadId: slot.id, taskId: task?.id, task: task?.task, error, exitCode });
    this.#replace(slot, 'crash');
  }

  #spawn(): Slot | null {
    const slot: Slot = { id: this.#nextThread++, thread: null, task: null, dead: false };
    this.#slots.push(slot);
    try {
      slot.thread = this.#spawner!.spawn(
        this.#url,
        `rove-${this.name}-${slot.id}`,
        {
          message: (data) => this.#onMessage(slot, data),
          error: (error) => this.#onCrash(slot, error, undefined),
          exit: (code) => this.#onCrash(slot, new Error(`The thread exited (code ${code ?? 'unknown'})`), code),
        },
        { lowPriority: this.#options.priority !== 'normal' },
      );
    } catch (error) {
      this.#onCrash(slot, error, undefined);
      return null;
    }
    return slot;
  }

  #replace(slot: Slot, reason: 'timeout' | 'crash'): void {
    slot.dead = true;
    remove(this.#slots, slot);
    remove(this.#idle, slot);
    void terminate(slot.thread);
    if (this.#mode !== 'threads') return;
    // A thread that keeps crashing before finishing any task (a broken module,
    // a task that always kills it) is respawned ever more slowly, not in a hot loop.
    const streak = reason === 'crash' ? this.#crashStreak : 0;
    const delay = streak <= 1 ? 0 : Math.min(50 * 2 ** (streak - 2), 5000);
    const respawn = () => {
      if (this.#mode !== 'threads') return;
      const fresh = this.#spawn();
      if (fresh === null) return;
      this.#stats.respawns++;
      this.#events?.emit('thread:respawn', { pool: this.name, threadId: fresh.id, replaces: slot.id, reason });
      this.#next(fresh);
    };
    if (delay === 0) {
      respawn();
      return;
    }
    const timer = setTimeout(() => {
      this.#respawnTimers.delete(timer);
      respawn();
    }, delay);
    this.#respawnTimers.add(timer);
  }

  /** No threads here: run the task in this isolate, with the same cloning, timeout and queue limit. */
  async #inline(name: string, payload: unknown): Promise<unknown> {
    const limit = Math.floor(this.#options.size ?? 1) + this.maxQueue;
    if (this.#inflight >= limit) {
      return this.#refuse(name, 'queue-full', 'The thread pool queue is full', { 'retry-after': String(this.#options.retryAfterS ?? 1) });
    }
    this.#inflight++;
    let timer: ReturnType<typeof setTimeout> | undefined;
    try {
      const module = await (this.#loaded ??= this.#load());
      const fn = module[name];
      if (typeof fn !== 'function') throw new Error(`The task module has no function export "${name}"`);
      const input = structuredClone(payload);
      const work = Promise.resolve().then(() => fn(input));
      let result: unknown;
      if (this.timeoutMs > 0) {
        // Only an async task can be cut short: nothing preempts synchronous code in the same isolate.
        const timeout = new Promise<never>((_, reject) => {
          timer = setTimeout(() => {
            this.#stats.timeouts++;
            this.#events?.emit('thread:timeout', { pool: this.name, threadId: 0, taskId: 0, task: name, timeoutMs: this.timeoutMs });
            reject(new HttpError(504, `Task "${name}" ran longer than ${this.timeoutMs} ms`));
          }, this.timeoutMs);
        });
        result = await Promise.race([work, timeout]);
      } else {
        result = await work;
      }
      const out = structuredClone(result);
      this.#stats.completed++;
      return out;
    } catch (error) {
      if (error instanceof HttpError && (error.status === 504 || error.status === 503)) throw error;
      this.#stats.failed++;
      throw taskError(serializeError(error));
    } finally {
      clearTimeout(timer);
      this.#inflight--;
    }
  }

  #load(): Promise<TaskModule> {
    const { load, module } = this.#options;
    if (load !== undefined) return load();
    let url: string;
    try {
      url = String(typeof module === 'function' ? module() : module);
    } catch (error) {
      return Promise.reject(new Error('The task module has no URL here; give createThreadPool a load: () => import("./tasks.ts")', { cause: error }));
    }
    return import(url) as Promise<TaskModule>;
  }
}

/** A task's error as the response it becomes: a 4xx the task asked for, or a 500 that shows nothing outside dev mode. */
function taskError(e: SerializedError): HttpError {
  if (e.status !== undefined) return new HttpError(e.status, e.message);
  const cause = new Error(e.message);
  cause.name = e.name;
  if (e.stack !== undefined) cause.stack = e.stack;
  return new HttpError(500, `Task failed: ${e.name}: ${e.message}`, { cause });
}

function terminate(thread: WorkerThread | null): Promise<unknown> {
  if (thread === null) return Promise.resolve();
  try {
    return Promise.resolve(thread.terminate()).catch(() => {});
  } catch {
    return Promise.resolve();
  }
}

function remove<T>(list: T[], item: T): void {
  const i = list.indexOf(item);
  if (i !== -1) list.splice(i, 1);
}

export type { RunOptions, ThreadRunner } from './runner.ts';

/** A pool of threads running `module`'s exports. Give it to the app: `new App({ threads: createThreadPool({...}) })`. */
export function createThreadPool(options: ThreadPoolOptions): ThreadPool {
  return new ThreadPool(options);
}
