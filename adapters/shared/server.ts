// The server lifecycle, written once for Node, Deno and Bun: listen, the
// listening URL and event, graceful shutdown with a bounded grace, signals,
// the process-error watcher and app.shutdown(). Each runtime file implements
// only `ServerDriver`.
import type { App } from '../../src/core/app.ts';
import { unfinished } from './background.ts';
import { backgroundContext, listenMessage, listenUrl, type ServeHandle, type ServeOptions } from './serve-options.ts';

/** A bound address, as the runtime reports it. */
export interface Address {
  port: number;
  hostname: string;
}

/** What one runtime does for the shared lifecycle. */
export interface ServerDriver {
  /** 'node' | 'deno' | 'bun': the `runtime` of `server:*` events. */
  readonly runtime: string;
  /** Start listening. May throw (synchronously) or reject when the address is taken. */
  listen(): Address | Promise<Address>;
  /** Stop accepting connections; resolve once in-flight requests have finished. */
  stop(): Promise<void>;
  /** Cut every open connection now: the grace period is over. */
  cut(): void | Promise<void>;
  /** Call `handler` on SIGINT and SIGTERM; returns the function that stops that. */
  onSignal(handler: () => void): () => void;
  exit(code: number): void;
  /** Report unhandled rejections and uncaught errors as `process:error`; returns the function that stops that. */
  watchErrors(app: App<any>): () => void;
  /**
   * Start the app's scheduled tasks, before listening (Deno Deploy wants Deno.cron registered
   * first); returns the function that stops new runs. Absent where another process runs them.
   */
  startTasks?(): () => void;
}

/** Wait until `pending` is empty: work that ends may hand more to waitUntil (a task's last step). */
async function drain(pending: Set<Promise<unknown>>): Promise<void> {
  while (pending.size > 0) await Promise.allSettled([...pending]);
}

/** How many servers each app has running: the app shuts down (its thread pool) with the last one. */
const serving = new WeakMap<App<any>, number>();

/** One server of `app` stopped (or never started); true when it was the last. */
function release(app: App<any>): boolean {
  const left = (serving.get(app) ?? 1) - 1;
  if (left > 0) serving.set(app, left);
  else serving.delete(app);
  return left <= 0;
}

/**
 * Run `driver`'s server for `app` until `close()`, `options.signal`, SIGINT or SIGTERM.
 *
 * @example
 * // inside a runtime's serve():
 * const handle = startServer(app, options, pending, { runtime: 'bun', listen, stop, cut, onSignal, exit, watchErrors });
 * await handle.ready;
 * console.log(handle.url);
 */
export function startServer(app: App<any>, options: ServeOptions, pending: Set<Promise<unknown>>, driver: ServerDriver): ServeHandle {
  const runtime = driver.runtime;
  const grace = options.shutdownTimeoutMs ?? 10_000;
  serving.set(app, (serving.get(app) ?? 0) + 1);
  let held = true;
  // This server's count goes back once, whether it stops or never started.
  const letGo = (): boolean => {
    const last = held && release(app);
    held = false;
    return last;
  };
  let resolveFinished!: () => void;
  let rejectFinished!: (error: unknown) => void;
  const finished = new Promise<void>((resolve, reject) => {
    resolveFinished = resolve;
    rejectFinished = reject;
  });
  let closing: Promise<void> | undefined;
  let cutNow: (() => void) | undefined;
  let unwatch = () => {};
  let unsignal = () => {};
  let unabort = () => {};
  let unschedule = () => {};
  const cleanUp = () => {
    unwatch();
    unsignal();
    unabort();
    unschedule();
  };

  const handle = {
    port: 0,
    hostname: options.hostname ?? '0.0.0.0',
    url: '',
    ready: undefined as unknown as Promise<void>,
    finished,
    close: (): Promise<void> => (closing ??= shutdown()),
  };

  async function shutdown(): Promise<void> {
    // No new task runs; those already running are in `pending`, which the grace period covers.
    unschedule();
    // Listeners' async work joins `pending` too.
    app.events?.emit('server:shutdown', { runtime }, backgroundContext(pending));
    let timer: ReturnType<typeof setTimeout> | undefined;
    const graceOver = new Promise<void>((resolve) => {
      cutNow = resolve;
      timer = setTimeout(resolve, grace);
    });
    const stopped = driver.stop();
    const drained = stopped
      .then(() => drain(pending))
      .then(
        () => true,
        () => true, // the runtime failed to stop politely: nothing left to wait for
      );
    const clean = await Promise.race([drained, graceOver.then(() => false)]);
    clearTimeout(timer);
    if (!clean) {
      const left = unfinished(pending);
      if (left.length > 0) console.error(`rove: shutdown: ${grace} ms passed and work is still running, now cut off: ${left.join(', ')}`);
      await Promise.resolve()
        .then(() => driver.cut())
        .catch(() => {}); // connections already gone
      // Cut connections end their requests; wait no longer than a moment for the runtime to notice.
      await Promise.race([stopped.catch(() => {}), new Promise((r) => setTimeout(r, 100))]);
    }
    try {
      // An app served twice keeps its pool until its last server stops.
      if (letGo()) await app.shutdown();
    } finally {
      cleanUp();
      resolveFinished();
    }
  }

  if (options.handleSignals !== false) {
    let signals = 0;
    unsignal = driver.onSignal(() => {
      signals++;
      if (signals === 2) cutNow?.(); // a second signal: stop waiting for in-flight requests
      if (signals >= 3) driver.exit(1); // a third: something hangs, leave now
      if (signals > 1) return;
      handle.close().then(
        () => driver.exit(0),
        () => driver.exit(1),
      );
    });
  }
  if (options.signal) {
    const onAbort = () => void handle.close();
    if (options.signal.aborted) queueMicrotask(onAbort);
    else options.signal.addEventListener('abort', onAbort, { once: true });
    unabort = () => options.signal?.removeEventListener('abort', onAbort);
  }
  unwatch = driver.watchErrors(app);
  if (driver.startTasks !== undefined) {
    try {
      unschedule = driver.startTasks();
    } catch (error) {
      cleanUp();
      letGo();
      throw error; // Deno without --unstable-cron: serve() says so at once
    }
  }

  const listening = (address: Address) => {
    handle.port = address.port;
    handle.hostname = address.hostname;
    handle.url = listenUrl(address.hostname, address.port);
    (options.onListen ?? listenMessage)({ port: address.port, hostname: address.hostname });
    app.events?.emit('server:listening', { runtime, hostname: address.hostname, port: address.port, url: handle.url });
  };
  const failed = (error: unknown) => {
    letGo();
    cleanUp();
    rejectFinished(error);
    finished.catch(() => {}); // `ready` carries the error: one report is enough
    throw error;
  };
  let address: Address | Promise<Address>;
  try {
    address = driver.listen();
  } catch (error) {
    letGo();
    cleanUp();
    throw error; // as Deno.serve and Bun.serve do: serve() itself throws
  }
  if (address instanceof Promise) {
    handle.ready = address.then(listening, failed);
  } else {
    listening(address);
    handle.ready = Promise.resolve();
  }
  return handle;
}
