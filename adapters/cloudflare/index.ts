import type { App } from '../../src/app.ts';
import type { ExecutionContext } from '../../src/context.ts';
import { internalError } from '../../src/errors.ts';
import { watchGlobalErrors } from '../shared/global-errors.ts';
import { completeWorker } from './websocket.ts';

// One bound handler per app, however many times toWorker is called for it.
const bound = new WeakMap<App<any>, ReturnType<App<any>['bind']>>();

/** Workers name the client in a header set by Cloudflare's edge; nothing else here can be trusted for it. */
function workerAddress(request: { headers: Headers }): string | undefined {
  return request.headers.get('cf-connecting-ip') ?? undefined;
}

/** Rove's own 500 for anything that escaped (its message only in dev mode). */
function escaped(app: App<any>, error: unknown): Response {
  return internalError(app.settings.dev ? error : undefined);
}

/**
 * The Workers module shape: `export default toWorker(app)`. Bindings arrive as
 * `c.env`, the execution context as `c.executionCtx` (`waitUntil`), and
 * `cf-connecting-ip` as `c.req.ip`. Unhandled rejections in the isolate reach
 * `app.on` as `process:error`. Anything that escapes answers Rove's 500, never the runtime's.
 *
 * @example
 * // worker.ts (wrangler.toml: main = "worker.ts")
 * export default toWorker(app);
 */
export function toWorker<Bindings = Record<string, unknown>>(
  app: App<any>,
): {
  fetch(request: Request, env: Bindings, ctx: ExecutionContext): Response | Promise<Response>;
} {
  let handle = bound.get(app);
  if (handle === undefined) {
    handle = app.bind({ runtime: 'workerd', address: workerAddress });
    bound.set(app, handle);
    watchGlobalErrors(app, 'workerd');
  }
  const handler = handle;
  return {
    fetch(request, env, ctx) {
      try {
        const out = handler(request, env, ctx);
        // A WebSocket route's answer becomes the 101 with the client's end of a WebSocketPair.
        return out instanceof Promise ? out.then(completeWorker).catch((error) => escaped(app, error)) : completeWorker(out);
      } catch (error) {
        return escaped(app, error);
      }
    },
  };
}
