import type { App } from '../src/app.ts';
import type { ExecutionContext } from '../src/context.ts';
import { watchGlobalErrors } from './global-errors.ts';

const watched = new WeakSet<App<any>>();

/**
 * The Workers module shape: `export default toWorker(app)`. Bindings arrive as
 * `c.env` and the execution context as `c.executionCtx` (`waitUntil`).
 * Unhandled rejections in the isolate reach `app.on` as `process:error`.
 * `export default app` and `export default { fetch: app.fetch }` work the same, without that.
 */
export function toWorker<Bindings = Record<string, unknown>>(app: App<any>): {
  fetch(request: Request, env: Bindings, ctx: ExecutionContext): Response | Promise<Response>;
} {
  // Workers name the client in a header; nothing else here can be trusted for it.
  app.bind({ runtime: 'workerd', address: (request) => request.headers.get('cf-connecting-ip') ?? undefined });
  if (!watched.has(app)) {
    watched.add(app);
    watchGlobalErrors(app, 'workerd');
  }
  return { fetch: (request, env, ctx) => app.fetch(request, env, ctx) };
}
