import type { App } from '../src/app.ts';
import type { ExecutionContext } from '../src/context.ts';

/**
 * The Workers module shape: `export default toWorker(app)`. Bindings arrive as
 * `c.env` and the execution context as `c.executionCtx` (`waitUntil`).
 * `export default app` and `export default { fetch: app.fetch }` work the same.
 */
export function toWorker<Bindings = Record<string, unknown>>(app: App<any>): {
  fetch(request: Request, env: Bindings, ctx: ExecutionContext): Response | Promise<Response>;
} {
  // Workers name the client in a header; nothing else here can be trusted for it.
  app.events.clientAddress ??= (request) => request.headers.get('cf-connecting-ip') ?? undefined;
  return { fetch: (request, env, ctx) => app.fetch(request, env, ctx) };
}
