/**
 * The messages between a pool and its threads, and the loop a thread runs.
 * Runtime-neutral: each runtime's thread entry (adapters/node/thread-entry.ts, adapters/shared/web-thread-entry.ts)
 * only wires `serveTasks` to its own message port.
 */

/** A task module: its exports are the tasks (`default` unless `run(payload, { task })` names one). */
export type TaskModule = Record<string, unknown>;

export interface RunMessage {
  t: 'run';
  id: number;
  task: string;
  payload: unknown;
}

export interface SerializedError {
  name: string;
  message: string;
  stack?: string;
  /** An HTTP status the task asked for (an error with a numeric 4xx `status`). */
  status?: number;
}

export type ReplyMessage = { t: 'done'; id: number; result: unknown } | { t: 'fail'; id: number; error: SerializedError };

export function serializeError(error: unknown): SerializedError {
  if (error instanceof Error) {
    const status = (error as { status?: unknown }).status;
    return {
      name: error.name,
      message: error.message,
      stack: error.stack,
      ...(typeof status === 'number' && status >= 400 && status < 500 ? { status } : {}),
    };
  }
  return { name: 'Error', message: String(error) };
}

/**
 * The task loop of one thread: loads the module once (at start, so the first
 * task does not pay for it) and answers every run message with done or fail.
 */
export function serveTasks(load: () => Promise<TaskModule>, post: (message: ReplyMessage) => void): (message: RunMessage) => void {
  let module: TaskModule | undefined;
  const loading = load().then((m) => (module = m));
  loading.catch(() => {}); // reported per task below

  const reply = (id: number, result: unknown) => {
    try {
      post({ t: 'done', id, result });
    } catch (error) {
      // The result could not be cloned (a function, a class instance with private state…)
      post({ t: 'fail', id, error: serializeError(error) });
    }
  };
  const fail = (id: number, error: unknown) => post({ t: 'fail', id, error: serializeError(error) });

  const run = (m: TaskModule, message: RunMessage) => {
    const fn = m[message.task];
    if (typeof fn !== 'function') {
      fail(message.id, new Error(`The task module has no function export "${message.task}"`));
      return;
    }
    let out: unknown;
    try {
      out = fn(message.payload);
    } catch (error) {
      fail(message.id, error);
      return;
    }
    if (out instanceof Promise)
      out.then(
        (result) => reply(message.id, result),
        (error) => fail(message.id, error),
      );
    else reply(message.id, out);
  };

  return (message) => {
    if (message?.t !== 'run') return;
    // Once loaded, a synchronous task answers without a detour through the microtask queue.
    if (module !== undefined) run(module, message);
    else
      loading.then(
        (m) => run(m, message),
        (error) => fail(message.id, error),
      );
  };
}
