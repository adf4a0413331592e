import type { App } from '../src/app.ts';
import type { ExecutionContext } from '../src/context.ts';
import { listenMessage, type ServeHandle, type ServeOptions } from './serve-options.ts';

// The few Bun APIs used here, declared so the file type-checks without bun-types.
interface BunServer {
  port: number;
  hostname: string;
  stop(closeActiveConnections?: boolean): Promise<void>;
}
declare const Bun: {
  serve(options: { port?: number; hostname?: string; fetch: (request: Request) => Response | Promise<Response> }): BunServer;
  env: Record<string, string | undefined>;
};
declare const process: {
  once(signal: string, handler: () => void): void;
  off(signal: string, handler: () => void): void;
  exit(code?: number): never;
};

function backgroundContext(pending: Set<Promise<unknown>>): ExecutionContext {
  return {
    waitUntil(promise) {
      const p = promise.catch(() => {}).finally(() => pending.delete(p));
      pending.add(p);
    },
    passThroughOnException() {},
  };
}

/** Serve an app on Bun.serve. Stops on `signal`, `close()`, SIGINT or SIGTERM, letting in-flight requests finish. */
export function serve(app: App<any>, options: ServeOptions = {}): ServeHandle {
  const env = options.env ?? Bun.env;
  const pending = new Set<Promise<unknown>>();
  const ctx = backgroundContext(pending);
  const grace = options.shutdownTimeoutMs ?? 10_000;
  const server = Bun.serve({
    port: options.port ?? 8000,
    hostname: options.hostname ?? '0.0.0.0',
    fetch: (request) => app.fetch(request, env, ctx),
  });
  let resolveFinished!: () => void;
  const finished = new Promise<void>((r) => (resolveFinished = r));
  let closing: Promise<void> | undefined;
  const close = (): Promise<void> =>
    (closing ??= (async () => {
      let timer: ReturnType<typeof setTimeout> | undefined;
      const timeout = new Promise<void>((resolve) => (timer = setTimeout(resolve, grace)));
      await Promise.race([server.stop(false).then(() => Promise.allSettled([...pending])), timeout]);
      clearTimeout(timer);
      await server.stop(true);
      process.off('SIGINT', onSignal);
      process.off('SIGTERM', onSignal);
      resolveFinished();
    })());
  const onSignal = () => {
    close().then(() => process.exit(0));
  };
  if (options.handleSignals !== false) {
    process.once('SIGINT', onSignal);
    process.once('SIGTERM', onSignal);
  }
  options.signal?.addEventListener('abort', () => void close(), { once: true });
  (options.onListen ?? listenMessage)({ port: server.port, hostname: server.hostname });
  return { port: server.port, hostname: server.hostname, close, finished };
}
