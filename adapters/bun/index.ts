import type { App } from '../../src/core/app.ts';
import { internalError } from '../../src/core/problem.ts';
import { startTimers } from '../shared/background.ts';
import { checkUnlessBuilt, respondHeadersAfter } from '../shared/checked-response.ts';
import { processHooks } from '../shared/global-errors.ts';
import { BAD_HOST, NO_HOST, refuse } from '../shared/request-check.ts';
import { backgroundContext, groupOption, type ServeHandle, type ServeOptions } from '../shared/serve-options.ts';

export type { ServeHandle, ServeOptions } from '../shared/serve-options.ts';

import { upgradeOf } from '../../src/websocket/protocol.ts';
import { startServer } from '../shared/server.ts';
import { afterUnreadBody } from '../shared/unread-body.ts';
import { webThreads } from '../shared/web-threads.ts';
import { OpenSockets } from '../shared/websockets.ts';
import { bunWebSocketHandlers, upgradeBun } from './websocket.ts';

// The few Bun APIs used here, declared so the file type-checks without bun-types.
interface BunServer {
  port: number;
  hostname: string;
  stop(closeActiveConnections?: boolean): Promise<void>;
  requestIP(request: Request): { address: string } | null;
  upgrade(request: Request, options: { data: any; headers?: HeadersInit }): boolean;
}
declare const Bun: {
  serve(options: {
    port?: number;
    hostname?: string;
    idleTimeout?: number;
    maxRequestBodySize?: number;
    reusePort?: boolean;
    fetch: (request: Request, server: BunServer) => Response | undefined | Promise<Response | undefined>;
    websocket: ReturnType<typeof bunWebSocketHandlers>;
    error: (error: unknown) => Response | Promise<Response>;
  }): BunServer;
  env: Record<string, string | undefined>;
};
declare const process: {
  on(event: string, handler: (error: unknown) => void): void;
  off(event: string, handler: (error: unknown) => void): void;
  exit(code?: number): never;
};

/**
 * Bun: the 400 answer for a request the app must not see, or undefined.
 * Bun makes `request.url` relative (`/path`) exactly when the Host is missing
 * or is not a valid URL host (every Host `invalidHost` refuses, and `" < ^ { | \``),
 * so the URL's first character tells, without building the request's Headers
 * (a cost docs/design-notes.md gives). Bun answers `OPTIONS *` 400 itself.
 */
function checkBunRequest(request: Request): Response | undefined {
  if (request.url.charCodeAt(0) !== 0x2f) return undefined;
  return refuse(request.headers.get('host') === null ? NO_HOST : BAD_HOST);
}

/** The binding's `finish`: Bun would write a control character in a header value as is. */
function finishBun(res: Response): Response {
  checkUnlessBuilt(res);
  return res;
}

/**
 * A HEAD answer that says `Connection: close` when the request asked to close. Bun closes such a
 * connection without saying so, as Node, Deno and `deno serve` do (RFC 9112 §9.6); and fetch
 * (undici) sends HEAD with `Connection: close`, so a Node proxy that forwards it through a
 * keep-alive agent would reuse the closed socket for its next request. Only HEAD pays for the
 * header read (over 1 µs on Bun): other requests rarely ask to close.
 */
function closing(request: Request, res: Response): Response {
  if (!/\bclose\b/i.test(request.headers.get('connection') ?? '')) return res;
  try {
    res.headers.set('connection', 'close');
    return res;
  } catch {
    const copy = new Response(null, res); // immutable headers (a fetched Response): HEAD sends no body anyway
    copy.headers.set('connection', 'close');
    return copy;
  }
}

/** What Bun's serve() takes beyond every runtime's options. */
export interface BunServeOptions {
  /**
   * The largest request body Bun accepts, in bytes; Bun answers a larger one with 413 before the
   * app sees it (Bun's default: 128 MiB). Raise it for large uploads: `rove/uploads` limits each
   * route within it.
   */
  maxRequestBodySize?: number;
}

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
 * import { processGroup } from 'rove/bun/processes';
 * serve(app, { port: 8000, processes: processGroup('auto') });
 */
export function serve(app: App<any>, options: ServeOptions & BunServeOptions = {}): ServeHandle {
  const role = groupOption('bun', options)?.join(options);
  if (role !== undefined && 'primary' in role) return role.primary;
  const child = role !== undefined && 'child' in role ? role.child : undefined;
  const inGroup = child !== undefined;
  if (child !== undefined) options = child.options;
  const env = options.env ?? Bun.env;
  const pending = new Set<Promise<unknown>>();
  const ctx = backgroundContext(pending);
  app.settings.threads?.start(webThreads('bun'));
  // `info` is the Bun server: its requestIP knows the socket of the original Request.
  // finish: Bun writes a control character in a header value as is, a response clients refuse.
  const handle = app.bind({
    address: (request, info) => (info as BunServer | undefined)?.requestIP(request as Request)?.address,
    respond: respondHeadersAfter,
    finish: finishBun,
  });
  const idle = options.idleTimeoutMs;
  let server: BunServer | undefined;
  const sockets = new OpenSockets();
  // A WebSocket route's answer: Bun upgrades the connection (and wants no Response back).
  // An error answered before the body was read waits until the rest is dropped: Bun would reset.
  const complete = (res: Response, request: Request, bun: BunServer) => {
    if (res.status >= 400) return afterUnreadBody(request, res);
    if (request.method === 'HEAD') return closing(request, res);
    const upgrade = upgradeOf(res);
    return upgrade === undefined ? res : upgradeBun(upgrade, request, bun);
  };
  const server$ = startServer(app, options, pending, {
    runtime: 'bun',
    listen() {
      server = Bun.serve({
        port: options.port ?? 8000,
        hostname: options.hostname ?? '0.0.0.0',
        ...(idle === undefined ? {} : { idleTimeout: Math.min(MAX_IDLE_SECONDS, Math.ceil(idle / 1000)) }),
        ...(inGroup ? { reusePort: true } : {}),
        ...(options.maxRequestBodySize === undefined ? {} : { maxRequestBodySize: options.maxRequestBodySize }),
        // Bun relativises request.url when the Host is missing or odd: refuse those first.
        fetch: (request, bun) => {
          const refused = checkBunRequest(request);
          if (refused !== undefined) return refused;
          const out = handle(request, env, ctx, bun);
          return out instanceof Promise ? out.then((res) => complete(res, request, bun)) : complete(out, request, bun);
        },
        websocket: bunWebSocketHandlers(sockets),
        // Never Bun's development error page (50 KB of source and paths when NODE_ENV is unset).
        error: (error) => internalError(app.settings.dev ? error : undefined),
      });
      return { port: server.port, hostname: server.hostname };
    },
    stop: async () => {
      // Open WebSockets close with 1001 (going away) first: Bun's stop waits for them.
      void sockets.shutdown();
      await server?.stop(false);
    },
    cut: async () => {
      sockets.terminate();
      await server?.stop(true);
    },
    ...processHooks('bun', process),
    ...(child !== undefined ? { onSignal: child.onSignal } : {}),
    // In a group, one process runs the schedule.
    ...(child === undefined || child.index === 0 ? { startTasks: () => startTimers(app, env, pending) } : {}),
  });
  if (child !== undefined) server$.ready.then(() => child.listening(server$.port));
  return server$;
}
