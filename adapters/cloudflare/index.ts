import type { App } from '../../src/core/app.ts';
import type { ExecutionContext } from '../../src/core/context.ts';
import { internalError } from '../../src/core/problem.ts';
import { watchGlobalErrors } from '../shared/global-errors.ts';
import { afterUnreadBody } from '../shared/unread-body.ts';
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
 * What goes back to workerd: a WebSocket route's answer becomes the 101 with the client's end of a
 * WebSocketPair, and an error answered before the body was read waits until the rest is dropped
 * (workerd would reset the connection, and the client lose the answer). A HEAD answer goes without
 * its body, which is cancelled: workerd would wait for the body's end before the connection serves
 * another request, and a stream that never ends (SSE) would hold it, and its producer, for ever.
 */
function answer(request: Request, res: Response): Response | Promise<Response> {
  if (request.method === 'HEAD') return withoutBody(res);
  return res.status >= 400 ? afterUnreadBody(request, res) : completeWorker(res);
}

function withoutBody(res: Response): Response {
  if (res.body === null) return res;
  res.body.cancel().catch(() => {});
  return new Response(null, res);
}

/** What Workers hand a `scheduled` handler: the trigger's cron, as wrangler.toml lists it, and its time. */
export interface ScheduledControllerLike {
  readonly cron: string;
  readonly scheduledTime: number;
}

/**
 * The Workers module shape: `export default toWorker(app)`. Bindings arrive as
 * `c.env`, the execution context as `c.executionCtx` (`waitUntil`), and
 * `cf-connecting-ip` as `c.req.ip`. Unhandled rejections in the isolate reach
 * `app.on` as `process:error`. Anything that escapes answers Rove's 500, never the runtime's.
 * `scheduled` runs the app's tasks (`new App({ tasks })`) whose schedule is the trigger's cron;
 * wrangler.toml's `[triggers] crons` must list them (`npx rove crons` prints the block).
 *
 * @example
 * // worker.ts (wrangler.toml: main = "worker.ts")
 * export default toWorker(app);
 */
export function toWorker<Bindings = Record<string, unknown>>(
  app: App<any>,
): {
  fetch(request: Request, env: Bindings, ctx: ExecutionContext): Response | Promise<Response>;
  scheduled(controller: ScheduledControllerLike, env: Bindings, ctx: ExecutionContext): Promise<void>;
} {
  let handle = bound.get(app);
  if (handle === undefined) {
    handle = app.bind({ address: workerAddress });
    bound.set(app, handle);
    watchGlobalErrors(app, 'workerd');
  }
  const handler = handle;
  return {
    fetch(request, env, ctx) {
      try {
        const out = handler(request, env, ctx);
        return out instanceof Promise ? out.then((res) => answer(request, res)).catch((error) => escaped(app, error)) : answer(request, out);
      } catch (error) {
        return escaped(app, error);
      }
    },
    async scheduled(controller, env, ctx) {
      const list = app.settings.tasks;
      if (list === undefined) console.error(`rove: a cron trigger (${controller.cron}) arrived, and the app has no tasks: remove it from wrangler.toml`);
      else await list.tick(controller.cron, { env, scheduledTime: controller.scheduledTime, keep: (promise) => ctx.waitUntil(promise) });
    },
  };
}
