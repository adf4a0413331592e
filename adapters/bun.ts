import type { App } from '../src/app.ts';
import { internalError } from '../src/errors.ts';
import { checkHeaders } from '../src/response.ts';
import { processHooks } from './global-errors.ts';
import { checkBunRequest } from './request-check.ts';
import { backgroundContext, type ServeHandle, type ServeOptions } from './serve-options.ts';

export type { ServeHandle, ServeOptions } from './serve-options.ts';

import { childIndex, childOptions, childSignals, processCount, reportListening, serveGroup, spawnLaunch } from './processes.ts';
import { startServer } from './server.ts';
import { webWorkers } from './workers/web.ts';

// The few Bun APIs used here, declared so the file type-checks without bun-types.
interface BunServer {
  port: number;
  hostname: string;
  stop(closeActiveConnections?: boolean): Promise<void>;
  requestIP(request: Request): { address: string } | null;
}
declare const Bun: {
  serve(options: {
    port?: number;
    hostname?: string;
    idleTimeout?: number;
    reusePort?: boolean;
    fetch: (request: Request, server: BunServer) => Response | Promise<Response>;
    error: (error: unknown) => Response | Promise<Response>;
  }): BunServer;
  env: Record<string, string | undefined>;
};
declare const process: {
  on(event: string, handler: (error: unknown) => void): void;
  off(event: string, handler: (error: unknown) => void): void;
  exit(code?: number): never;
};

/** Bun's idleTimeout is in whole seconds, at most 255 (0: off). */
const MAX_IDLE_SECONDS = 255;

/**
 * Serve an app on Bun.serve. Stops on `signal`, `close()`, SIGINT or SIGTERM,
 * letting in-flight requests finish for up to `shutdownTimeoutMs`.
 * `idleTimeoutMs` becomes Bun's idleTimeout; Bun cuts a client whose headers are
 * incomplete after about 10 s by itself, and has no whole-request timeout (see the README).
 *
 * @example
 * const server = serve(app, { port: 8000, idleTimeoutMs: 30_000 });
 * console.log(server.url);
 * // one server process per core, each with SO_REUSEPORT:
 * serve(app, { port: 8000, processes: 'auto' });
 */
export function serve(app: App<any>, options: ServeOptions = {}): ServeHandle {
  const count = processCount(options.processes);
  const inGroup = childIndex() !== undefined;
  if (count > 1 && !inGroup) return serveGroup(options, count, spawnLaunch());
  if (inGroup) options = childOptions(options);
  const env = options.env ?? Bun.env;
  const pending = new Set<Promise<unknown>>();
  const ctx = backgroundContext(pending);
  app.settings.workers?.start(webWorkers('bun'));
  // `info` is the Bun server: its requestIP knows the socket of the original Request.
  // check: Bun writes a control character in a header value as is, a response clients refuse.
  app.bind({ runtime: 'bun', address: (request, info) => (info as BunServer | undefined)?.requestIP(request as Request)?.address, check: checkHeaders });
  const idle = options.idleTimeoutMs;
  let server: BunServer | undefined;
  const handle = startServer(app, options, pending, {
    runtime: 'bun',
    listen() {
      server = Bun.serve({
        port: options.port ?? 8000,
        hostname: options.hostname ?? '0.0.0.0',
        ...(idle === undefined ? {} : { idleTimeout: Math.min(MAX_IDLE_SECONDS, Math.ceil(idle / 1000)) }),
        ...(inGroup ? { reusePort: true } : {}),
        // Bun relativises request.url when the Host is missing or odd: refuse those first.
        fetch: (request, bun) => checkBunRequest(request) ?? app.handle(request, env, ctx, bun),
        // Never Bun's development error page (50 KB of source and paths when NODE_ENV is unset).
        error: (error) => internalError(app.settings.dev ? error : undefined),
      });
      return { port: server.port, hostname: server.hostname };
    },
    stop: async () => {
      await server?.stop(false);
    },
    cut: async () => {
      await server?.stop(true);
    },
    ...processHooks('bun', process),
    ...(inGroup ? { onSignal: childSignals } : {}),
  });
  if (inGroup) handle.ready.then(() => reportListening(handle.port));
  return handle;
}
