import type { App } from '../../src/core/app.ts';
import { internalError } from '../../src/core/problem.ts';
import { keep } from '../shared/background.ts';
import { respondChecked } from '../shared/checked-response.ts';
import { watchGlobalErrors } from '../shared/global-errors.ts';
import type { GroupChild, ServeHandle, ServeOptions } from '../shared/serve-options.ts';
import { backgroundContext, groupOption } from '../shared/serve-options.ts';
import { type Address, startServer } from '../shared/server.ts';
import { webThreads } from '../shared/web-threads.ts';
import { OpenSockets } from '../shared/websockets.ts';
import { startDenoCron } from './cron.ts';
import { denoHeader } from './header.ts';
import { checkDenoRequest } from './request-check.ts';
import { type DenoServeInfo, denoAddress, denoEnv } from './serve-info.ts';
import { denoFinish } from './websocket.ts';

export type { ServeHandle, ServeOptions } from '../shared/serve-options.ts';
export { type DenoServeInfo, denoAddress, denoEnv } from './serve-info.ts';

// The few Deno APIs used here, declared so the file type-checks without Deno's lib.
interface DenoServer {
  finished: Promise<void>;
  shutdown(): Promise<void>;
}
declare const Deno: {
  serve(
    options: {
      port?: number;
      hostname?: string;
      reusePort?: boolean;
      signal?: AbortSignal;
      onListen?: (addr: Address) => void;
      onError?: (error: unknown) => Response | Promise<Response>;
    },
    handler: (request: Request, info: DenoServeInfo) => Response | Promise<Response>,
  ): DenoServer;
  addSignalListener(signal: 'SIGINT' | 'SIGTERM', handler: () => void): void;
  removeSignalListener(signal: 'SIGINT' | 'SIGTERM', handler: () => void): void;
  exit(code?: number): never;
};

/**
 * Serve an app on Deno.serve. Stops on `signal`, `close()`, SIGINT or SIGTERM,
 * letting in-flight requests finish for up to `shutdownTimeoutMs`.
 * Deno.serve has no header, request or idle timeout to set, and cannot cut connections
 * still busy when the grace period ends (exiting on a signal does): see the README.
 *
 * @example
 * const server = serve(app, { port: 8000 });
 * await server.ready;
 * // one server process per core (children get --unstable-net, which Deno's reusePort needs):
 * import { processGroup } from 'rove/deno/processes';
 * serve(app, { port: 8000, processes: processGroup('auto') });
 */
export function serve(app: App<any>, options: ServeOptions = {}): ServeHandle {
  // A group is passed in (rove/deno/processes): its node: modules start Deno's Node layer, and any
  // node: module makes Deno look at its inspector on every WebSocket message
  // (docs/design-notes.md), so a lone server never loads them.
  const role = groupOption('deno', options)?.join(options);
  if (role !== undefined && 'primary' in role) return role.primary;
  return role !== undefined && 'child' in role ? serveOne(app, role.child.options, role.child) : serveOne(app, options, null);
}

/** One Deno.serve server; `group` when this process is a child of a server group. */
function serveOne(app: App<any>, options: ServeOptions, group: GroupChild | null): ServeHandle {
  const inGroup = group !== null;
  const env = options.env ?? denoEnv();
  const pending = new Set<Promise<unknown>>();
  const ctx = backgroundContext(pending);
  app.settings.threads?.start(webThreads('deno'));
  const sockets = new OpenSockets();
  // finish checks headers, and makes a WebSocket route's answer Deno's 101 inside the app, so the handler below
  // returns the app's own promise instead of chaining one more per request. `ctx` is this server's
  // own: an app served twice keeps each server's sockets apart.
  const handleRequest = app.bind({
    address: denoAddress,
    header: denoHeader,
    respond: respondChecked,
    finish: denoFinish(ctx, sockets),
  });
  let server: DenoServer | undefined;
  let listened!: (address: Address) => void;
  const listening = new Promise<Address>((resolve) => (listened = resolve));
  const handle = startServer(app, options, pending, {
    runtime: 'deno',
    listen() {
      server = Deno.serve(
        {
          port: options.port ?? 8000,
          hostname: options.hostname ?? '0.0.0.0',
          ...(inGroup ? { reusePort: true } : {}),
          onListen: listened,
          // Anything that escapes (the app never throws; a runtime failure might): Rove's 500, not Deno's.
          onError: (error) => internalError(app.settings.dev ? error : undefined),
        },
        (request, info) => {
          const refused = checkDenoRequest(request);
          return refused !== undefined ? refused : handleRequest(request, env, ctx, info);
        },
      );
      return listening;
    },
    stop: async () => {
      // Open WebSockets close with 1001 (going away); shutdown() waits for them.
      void sockets.shutdown();
      await server?.shutdown();
    },
    // Deno.serve cannot cut connections once shutdown() has begun (its abort signal then
    // throws BadResource): requests still running end with their handlers, or at exit.
    cut() {
      sockets.terminate();
    },
    onSignal(handler) {
      if (group !== null) return group.onSignal(handler);
      const signals = ['SIGINT', 'SIGTERM'] as const;
      const added = signals.filter((s) => {
        try {
          Deno.addSignalListener(s, handler);
          return true;
        } catch {
          return false; // SIGTERM is not supported on Windows
        }
      });
      return () => added.forEach((s) => Deno.removeSignalListener(s, handler));
    },
    exit: (code) => Deno.exit(code),
    watchErrors: (target) => watchGlobalErrors(target, 'deno'),
    // In a group, one process runs the schedule.
    ...(group === null || group.index === 0
      ? {
          startTasks: () =>
            startDenoCron(
              app,
              () => env,
              (promise, label) => keep(pending, promise, label),
            ),
        }
      : {}),
  });
  if (group !== null) handle.ready.then(() => group.listening(handle.port));
  return handle;
}
