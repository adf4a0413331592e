import type { App } from '../src/app.ts';
import { denoEnv } from './deno.ts';
import { backgroundContext } from './serve-options.ts';

/**
 * The module shape `deno serve` and Deno Deploy run: `export default toDeploy(app)`.
 * Handlers get the environment as `c.env` (`export default { fetch: app.fetch }` works too, without it).
 */
export function toDeploy(app: App<any>, options: { env?: Record<string, unknown> } = {}): {
  fetch(request: Request): Response | Promise<Response>;
} {
  let env = options.env;
  const ctx = backgroundContext(new Set());
  return {
    fetch(request: Request) {
      return app.fetch(request, (env ??= denoEnv()), ctx);
    },
  };
}
