import type { App } from '../src/app.ts';
import { denoEnv } from './deno.ts';
import { watchGlobalErrors } from './global-errors.ts';
import { backgroundContext, listenMessage, listenUrl } from './serve-options.ts';

/**
 * The module shape `deno serve` and Deno Deploy run: `export default toDeploy(app)`.
 * Handlers get the environment as `c.env` (`export default { fetch: app.fetch }` works too, without it).
 * `server:listening` and `process:error` reach `app.on` as under `serve()`.
 */
export function toDeploy(
  app: App<any>,
  options: { env?: Record<string, unknown>; onListen?: (address: { port: number; hostname: string }) => void } = {},
): {
  fetch(request: Request, info?: unknown): Response | Promise<Response>;
  onListen(address: { port?: number; hostname?: string }): void;
} {
  let env = options.env;
  const ctx = backgroundContext(new Set());
  watchGlobalErrors(app, 'deno-deploy');
  app.bind({ runtime: 'deno-deploy', address: (_request, info) => (info as { remoteAddr?: { hostname?: string } } | undefined)?.remoteAddr?.hostname });
  return {
    fetch(request: Request, info?: unknown) {
      return app.handle(request, (env ??= denoEnv()), ctx, info);
    },
    // deno serve calls it in place of its own "Listening on" line.
    onListen({ port = 0, hostname = '' }) {
      (options.onListen ?? listenMessage)({ port, hostname });
      app.events.emit('server:listening', { runtime: 'deno-deploy', hostname, port, url: listenUrl(hostname, port) });
    },
  };
}
