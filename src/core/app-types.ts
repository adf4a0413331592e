import type { ParamKeys } from '../routing/path-params.ts';
import type { TaskList } from '../tasks/list.ts';
import type { ThreadPool } from '../threads/pool.ts';
import type { ViewRenderer } from '../views/renderer.ts';
import type { Handler } from './compose.ts';
import type { Context, Env, ResponseFactory } from './context.ts';
import type { ErrorPage } from './error-page.ts';
import type { RequestLike } from './request.ts';

export interface AppOptions {
  /** Largest request body the body readers accept, in bytes (default 1 MiB); `bodyLimit()` changes it per route. */
  bodyLimit?: number;
  /** Longest URL accepted (default 8 KiB); longer answers 414. */
  maxUrlLength?: number;
  /** Longest single path param accepted (default 1 KiB); longer answers 414. */
  maxParamLength?: number;
  /**
   * Without it, `/a/` and `/a` are different paths. `redirectTrailingSlash` from `rove/trailing-slash`
   * redirects a miss to the other form when that one has a route.
   */
  trailingSlash?: TrailingSlashRule;
  /** Dev mode shows error messages and stacks of 5xx responses. */
  dev?: boolean;
  views?: ViewRenderer;
  /** The thread pool handlers reach as `c.threads` (`createThreadPool` from rove/threads); without one, `c.threads.run()` answers 503. */
  threads?: ThreadPool;
  /**
   * Which proxies in front of the server may name the client for `c.req.ip` and its protocol for
   * `c.req.protocol` (through `X-Forwarded-For` and `X-Forwarded-Proto`, or `Forwarded` when
   * chosen): `trustProxy(hops | addresses | predicate, options?)` from `rove/trust-proxy`.
   * Default: none, so `c.req.ip` is the connection's peer and those headers are ignored.
   */
  trustProxy?: ProxyRule;
  /**
   * How the default error answer looks to a client that asks for HTML: `htmlErrorPage` from
   * `rove/error-page` gives browsers a short HTML page. Default: problem+json for every client.
   */
  errorPage?: ErrorPage;
  /**
   * Scheduled tasks, from `tasks()` in `rove/tasks`: `toWorker(app)` runs them on Workers' cron
   * triggers, `serve()` on Deno with Deno.cron and on Node and Bun with timers. Default: none.
   */
  tasks?: TaskList<any>;
}

/**
 * A tracing layer's view of the app (`app.instrument`): each chain's layers (middleware, then the
 * route's handlers) and its route pattern, `null` for the chain of requests no route answers.
 * Called once per chain, when it is composed; returns the layers to run.
 */
export type Instrument = (layers: Handler[], route: string | null) => Handler[];

/**
 * What a request no route answers may get instead of its 404, from the context and a test of
 * whether another path has a route for the request's method (`redirectTrailingSlash` is one).
 */
export type TrailingSlashRule = (c: Context<any, any>, routed: (path: string) => boolean) => Response | undefined;

/** What `trustProxy()` gives the app: from the connection's peer address (when the runtime gives one) and the request, the client's address and protocol. */
export interface ProxyRule {
  clientIp(socket: string | undefined, request: { readonly headers: Headers }): string | undefined;
  /** The protocol a trusted proxy says the client used; undefined when the peer is not trusted or says nothing usable. */
  protocol(socket: string | undefined, request: { readonly headers: Headers }): 'http' | 'https' | undefined;
}

/**
 * What an adapter tells the app for the requests its server receives (`app.bind` returns their
 * handler). Everything is optional; `app.fetch` and `app.request` use none of it.
 */
export interface ServerBinding {
  /** The peer address of the connection a request came on; `info` is what the adapter passed to the handler. */
  address?(request: RequestLike, info: unknown): string | undefined;
  /**
   * Builds the responses context helpers return; must give something that is `instanceof Response`.
   * Its header record holds only names and values the context checked (see `checkHeader`).
   */
  respond?: ResponseFactory;
  /**
   * The last step of every response, inside the app's error boundary: throws when the runtime
   * could not send `res` (a header value it would write as is, or crash on), and may swap a
   * WebSocket route's placeholder for the runtime's own 101 (`upgradeOf` finds it).
   */
  finish?(res: Response, c: Context<any, any>): Response;
  /**
   * The runtime's cheaper `request.headers.get(name)`, for `c.req.header()` and the body readers:
   * the same answer, without building the request's whole `Headers`. It gets every request the
   * app sees, the adapter's own and any other (a Request a middleware made), and must answer both.
   */
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
