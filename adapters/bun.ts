import type { App } from '../src/app.ts';
import type { ExecutionContext } from '../src/context.ts';
import { watchProcessErrors } from './global-errors.ts';
import { backgroundContext, listenMessage, listenUrl, type ServeHandle, type ServeOptions } from './serve-options.ts';
import { webWorkers } from './workers/web.ts';

// The few Bun APIs used here, declared so the file type-checks without bun-types.
interface BunServer {
  port: number;
  hostname: string;
  stop(closeActiveConnections?: boolean): Promise<void>;
  requestIP(request: Request): { address: string } | null;
}
declare const Bun: {
  serve(options: { port?: number; hostname?: string; fetch: (request: Request) => Response | Promise<Response> }): BunServer;
  env: Record<string, string | undefined>;
};
declare const process: {
  once(signal: string, handler: () => void): void;
  on(event: string, handler: (error: unknown) => void): void;
  off(signal: string, handler: (error: unknown) => void): void;
  exit(code?: number): never;
};

/** Serve an app on Bun.serve. Stops on `signal`, `close()`, SIGINT or SIGTERM, letting in-flight requests finish. */
export function serve(app: App<any>, options: ServeOptions = {}): ServeHandle {
  const env = options.env ?? Bun.env;
  const pending = new Set<Promise<unknown>>();
  const ctx = backgroundContext(pending);
  const grace = options.shutdownTimeoutMs ?? 10_000;
  app.settings.workers?.start(webWorkers('bun'));
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
      app.events.emit('server:shutdown', { runtime: 'bun' }, ctx);
      let timer: ReturnType<typeof setTimeout> | undefined;
      const timeout = new Promise<void>((resolve) => (timer = setTimeout(resolve, grace)));
      await Promise.race([server.stop(false).then(() => Promise.allSettled([...pending])), timeout]);
      clearTimeout(timer);
      await server.stop(true);
      await app.shutdown();
      unwatch();
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
  const unwatch = watchProcessErrors(app, 'bun', process);
  app.bind({ runtime: 'bun', address: (request) => server.requestIP(request as Request)?.address });
  (options.onListen ?? listenMessage)({ port: server.port, hostname: server.hostname });
  app.events.emit('server:listening', { runtime: 'bun', hostname: server.hostname, port: server.port, url: listenUrl(server.hostname, server.port) });
  return { port: server.port, hostname: server.hostname, close, finished };
}
