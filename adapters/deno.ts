import type { App } from '../src/app.ts';
import type { ExecutionContext } from '../src/context.ts';
import { watchGlobalErrors } from './global-errors.ts';
import { backgroundContext, listenMessage, listenUrl, type ServeHandle, type ServeOptions } from './serve-options.ts';
import { webWorkers } from './workers/web.ts';

// The few Deno APIs used here, declared so the file type-checks without Deno's lib.
interface DenoServer {
  finished: Promise<void>;
  shutdown(): Promise<void>;
  addr: { port: number; hostname: string };
}
declare const Deno: {
  serve(
    options: { port?: number; hostname?: string; signal?: AbortSignal; onListen?: (addr: { port: number; hostname: string }) => void },
    handler: (request: Request, info: unknown) => Response | Promise<Response>,
  ): DenoServer;
  env: { toObject(): Record<string, string> };
  addSignalListener(signal: 'SIGINT' | 'SIGTERM', handler: () => void): void;
  removeSignalListener(signal: 'SIGINT' | 'SIGTERM', handler: () => void): void;
  exit(code?: number): never;
};

type DenoServeInfo = { remoteAddr?: { hostname?: string } };

/** The process environment, or nothing when `--allow-env` was not given. */
export function denoEnv(): Record<string, string> {
  try {
    return Deno.env.toObject();
  } catch {
    return {};
  }
}

/** Serve an app on Deno.serve. Stops on `signal`, `close()`, SIGINT or SIGTERM, letting in-flight requests finish. */
export function serve(app: App<any>, options: ServeOptions = {}): ServeHandle {
  const env = options.env ?? denoEnv();
  const pending = new Set<Promise<unknown>>();
  const ctx = backgroundContext(pending);
  const grace = options.shutdownTimeoutMs ?? 10_000;
  const handle = {
    port: options.port ?? 8000,
    hostname: options.hostname ?? '0.0.0.0',
    close: () => close(),
    finished: undefined as unknown as Promise<void>,
  };
  app.settings.workers?.start(webWorkers('deno'));
  app.bind({ runtime: 'deno', address: (_request, info) => (info as DenoServeInfo | undefined)?.remoteAddr?.hostname });
  const server = Deno.serve(
    {
      port: handle.port,
      hostname: handle.hostname,
      onListen: (addr) => {
        handle.port = addr.port;
        (options.onListen ?? listenMessage)({ port: addr.port, hostname: addr.hostname });
        app.events.emit('server:listening', { runtime: 'deno', hostname: addr.hostname, port: addr.port, url: listenUrl(addr.hostname, addr.port) });
      },
    },
    (request, info) => {
      return app.handle(request, env, ctx, info);
    },
  );
  handle.finished = server.finished;
  let closing: Promise<void> | undefined;
  const close = (): Promise<void> =>
    (closing ??= (async () => {
      app.events.emit('server:shutdown', { runtime: 'deno' }, ctx);
      let timer: ReturnType<typeof setTimeout> | undefined;
      const timeout = new Promise<void>((resolve) => (timer = setTimeout(resolve, grace)));
      await Promise.race([server.shutdown().then(() => Promise.allSettled([...pending])), timeout]);
      clearTimeout(timer);
      await app.shutdown();
      unwatch();
      if (options.handleSignals !== false) {
        Deno.removeSignalListener('SIGINT', onSignal);
        Deno.removeSignalListener('SIGTERM', onSignal);
      }
    })());
  const onSignal = () => {
    close().then(() => Deno.exit(0));
  };
  if (options.handleSignals !== false) {
    Deno.addSignalListener('SIGINT', onSignal);
    Deno.addSignalListener('SIGTERM', onSignal);
  }
  options.signal?.addEventListener('abort', () => void close(), { once: true });
  const unwatch = watchGlobalErrors(app, 'deno');
  return handle;
}
