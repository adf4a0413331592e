import type { App } from '../../src/core/app.ts';
import { internalError } from '../../src/core/problem.ts';
import { startDenoCron } from '../deno/cron.ts';
import { denoHeader } from '../deno/header.ts';
import { checkDenoRequest } from '../deno/request-check.ts';
import { type DenoServeInfo, denoAddress, denoEnv } from '../deno/serve-info.ts';
import { denoFinish } from '../deno/websocket.ts';
import { respondChecked } from '../shared/checked-response.ts';
import { watchGlobalErrors } from '../shared/global-errors.ts';
import { backgroundContext, listenMessage, listenUrl } from '../shared/serve-options.ts';

/** Rove's own 500 for anything that escaped (its message only in dev mode). */
function escaped(app: App<any>, error: unknown): Response {
  return internalError(app.settings.dev ? error : undefined);
}

/**
 * The module shape `deno serve` and Deno Deploy run: `export default toDeploy(app)`.
 * Handlers get the environment as `c.env` and the client address as `c.req.ip`;
 * a bad Host or `OPTIONS *` answers 400 before the app runs.
 * `server:listening` and `process:error` reach `app.on` as under `serve()`. The app's scheduled
 * tasks are registered with Deno.cron here, as the module loads (Deploy's rule; locally
 * `deno serve --unstable-cron`).
 *
 * @example
 * // main.ts, run with: deno serve --allow-env main.ts
 * export default toDeploy(app);
 */
export function toDeploy(
  app: App<any>,
  options: { env?: Record<string, unknown>; onListen?: (address: { port: number; hostname: string }) => void } = {},
): {
  fetch(request: Request, info?: DenoServeInfo): Response | Promise<Response>;
  onListen(address: { port?: number; hostname?: string }): void;
} {
  let env = options.env;
  const ctx = backgroundContext(new Set());
  // finish checks headers, and makes a WebSocket route's answer Deno's 101 inside the app's error boundary, so
  // fetch returns the app's own promise (which never rejects) instead of chaining one more.
  const handle = app.bind({
    address: denoAddress,
    header: denoHeader,
    respond: respondChecked,
    finish: denoFinish(ctx, null),
  });
  // While the module loads, as Deploy requires: it reads the crons registered then. Before the
  // error watcher, so that a missing --unstable-cron fails the module, not a logged rejection.
  startDenoCron(
    app,
    () => (env ??= denoEnv()),
    () => {},
  );
  watchGlobalErrors(app, 'deno-deploy');
  const fail = (error: unknown) => escaped(app, error);
  return {
    fetch(request, info) {
      // `deno serve` takes no onError from the module: anything thrown would get Deno's own 500.
      try {
        const refused = checkDenoRequest(request);
        if (refused !== undefined) return refused;
        const out = handle(request, (env ??= denoEnv()), ctx, info);
        // One callback made once, for a promise the app never rejects (a runtime failure might).
        return out instanceof Promise ? out.then(undefined, fail) : out;
      } catch (error) {
        return escaped(app, error);
      }
    },
    // deno serve calls it in place of its own "Listening on" line.
    onListen({ port = 0, hostname = '' }) {
      (options.onListen ?? listenMessage)({ port, hostname });
      app.events.emit('server:listening', { runtime: 'deno-deploy', hostname, port, url: listenUrl(hostname, port) });
    },
  };
}
