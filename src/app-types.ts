import type { Handler } from './compose.ts';
import type { Env, ExecutionContext, ResponseFactory } from './context.ts';
import type { ErrorPage } from './error-page.ts';
import type { ParamKeys } from './path-params.ts';
import type { RequestLike } from './request.ts';
import type { ViewRenderer } from './views/renderer.ts';
import type { WorkerPool } from './workers/pool.ts';

export interface AppOptions {
  /** Largest request body the body readers accept, in bytes (default 1 MiB); `bodyLimit()` changes it per route. */
  bodyLimit?: number;
  /** Longest URL accepted (default 8 KiB); longer answers 414. */
  maxUrlLength?: number;
  /** Longest single path param accepted (default 1 KiB); longer answers 414. */
  maxParamLength?: number;
  /** `'strict'` (default): `/a/` and `/a` are different paths. `'redirect'`: a miss redirects to the other form when it exists. */
  trailingSlash?: 'strict' | 'redirect';
  /** Dev mode shows error messages and stacks of 5xx responses. */
  dev?: boolean;
  views?: ViewRenderer;
  /** The worker pool handlers reach as `c.worker` (`createWorkerPool` from rove/workers); without one, `c.worker.run()` answers 503. */
  workers?: WorkerPool;
  /**
   * Which proxies in front of the server may name the client for `c.req.ip` (through `Forwarded` or
   * `X-Forwarded-For`): `trustProxy(hops | addresses | predicate)` from `rove/trust-proxy`. Default: none,
   * so `c.req.ip` is the connection's peer and those headers are ignored.
   */
  trustProxy?: ClientAddressRule;
  /**
   * How the default error answer looks to a client that asks for HTML: `htmlErrorPage` from
   * `rove/error-page` gives browsers a short HTML page. Default: problem+json for every client.
   */
  errorPage?: ErrorPage;
}

/** From the connection's peer address (when the runtime gives one) and the request, the client's address. */
export type ClientAddressRule = (socket: string | undefined, request: { readonly headers: Headers }) => string | undefined;

/**
 * What an adapter tells the app once, before serving it (`app.bind`). Everything is optional:
 * an app that was never bound serves through `app.fetch` with plain Responses.
 */
export interface ServerBinding {
  runtime: string;
  /** The peer address of the connection a request came on; `info` is what the adapter passed to `handle`. */
  address?(request: RequestLike, info: unknown): string | undefined;
  /** Builds the responses context helpers return; must give something that is `instanceof Response`. */
  respond?: ResponseFactory;
  /** Throws when the runtime could not send `res`; called inside the app's error boundary. */
  /**
   * `built`: a helper built `res` from checked headers and no middleware has read `c.res` since;
   * a binding whose check costs something may trust it then.
   */
  check?(res: Response, built: boolean): void;
  /**
   * Turns a WebSocket route's placeholder response into the runtime's own answer, inside the
   * app's error boundary; called only for a response `upgradeOf` finds an upgrade on. With it,
   * an adapter returns what `handle` gives as is, adding no promise of its own. `ctx` is the
   * request's `c.executionCtx`: an adapter tells its own servers' requests (and which server) by
   * the context it passed to `handle`, and leaves any other (`app.request`) as it is.
   */
  upgrade?(res: Response, request: RequestLike, ctx: ExecutionContext): Response;
  /** The runtime's cheaper `request.headers.get(name)`, for `c.req.header()` and the body readers. */
  header?(request: RequestLike, name: string): string | null;
}

/**
 * Handlers typed so that the last one sees what every earlier one validated:
 * each earlier handler's input type is inferred from it (e.g. `validate(...)`),
 * and the last one defaults to their intersection. The path `P` types `c.req.param()`
 * through its param keys; it is inferred from the path alone (not through `ParamKeys`), so an untyped
 * middleware such as `validate(...)` does not widen it.
 */
export interface RouteAdder<E extends Env, Self> {
  <P extends string, I1 = {}>(path: P, h1: Handler<E, I1, ParamKeys<P>>): Self;
  <P extends string, I1 = {}, I2 = I1>(path: P, h1: Handler<E, I1, ParamKeys<P>>, h2: Handler<E, I2, ParamKeys<P>>): Self;
  <P extends string, I1 = {}, I2 = I1, I3 = I1 & I2>(
    path: P,
    h1: Handler<E, I1, ParamKeys<P>>,
    h2: Handler<E, I2, ParamKeys<P>>,
    h3: Handler<E, I3, ParamKeys<P>>,
  ): Self;
  <P extends string, I1 = {}, I2 = I1, I3 = I1 & I2, I4 = I1 & I2 & I3>(
    path: P,
    h1: Handler<E, I1, ParamKeys<P>>,
    h2: Handler<E, I2, ParamKeys<P>>,
    h3: Handler<E, I3, ParamKeys<P>>,
    h4: Handler<E, I4, ParamKeys<P>>,
  ): Self;
  <P extends string, I1 = {}, I2 = I1, I3 = I1 & I2, I4 = I1 & I2 & I3, I5 = I1 & I2 & I3 & I4>(
    path: P,
    h1: Handler<E, I1, ParamKeys<P>>,
    h2: Handler<E, I2, ParamKeys<P>>,
    h3: Handler<E, I3, ParamKeys<P>>,
    h4: Handler<E, I4, ParamKeys<P>>,
    h5: Handler<E, I5, ParamKeys<P>>,
  ): Self;
  <P extends string>(path: P, ...handlers: Handler<E, any, ParamKeys<P>>[]): Self;
}
