import { DEFAULT_BODY_LIMIT } from '../http/body.ts';
import type { ParamKeys } from '../routing/path-params.ts';
import { ANY, EMPTY_PARAMS, type Match, parseRoute, Router, routeVariants } from '../routing/router.ts';
import { type AppParts, type CompiledRoute, lazyRoute, type RouteDef, type ScopedMiddleware, variantChain, walkApps } from './app-table.ts';
import type { AppOptions, Instrument, ProxyRule, RouteAdder, ServerBinding, TrailingSlashRule } from './app-types.ts';
import { compose, type ErrorResponder, type Handler } from './compose.ts';
import { Context, type Env, type ExecutionContext } from './context.ts';
import { type Entry, makeEntry } from './entry.ts';
import { logEscaped } from './error-log.ts';
import type { ErrorPage } from './error-page.ts';
import { HttpError } from './errors.ts';
import { EventBus, type EventKind, type Listener, observeRequest } from './events.ts';
import { internalError, problemAnswer } from './problem.ts';
import type { RequestLike } from './request.ts';
import { runChain } from './run-chain.ts';
import { allowHeader, elsewhere, unmatchedChain } from './unmatched.ts';

export type { AppOptions, Instrument, RouteAdder, ServerBinding, TrailingSlashRule } from './app-types.ts';

import { decodeSegments, normalizePath } from '../routing/path.ts';
import { MALFORMED, type Segment } from '../routing/pattern.ts';
import { parseScope } from '../routing/scope.ts';
import type { TaskList } from '../tasks/list.ts';
import type { ThreadPool } from '../threads/pool.ts';
import type { ViewRenderer } from '../views/renderer.ts';

export type NotFoundHandler<E extends Env = Env> = (c: Context<E>) => Response | Promise<Response>;
export type ErrorHandler<E extends Env = Env> = (error: unknown, c: Context<E>) => Response | Promise<Response>;

/** A bound app's request handler: what `app.bind` returns to an adapter. */
export type BoundHandler = (request: RequestLike, env: unknown, ctx: ExecutionContext | undefined, info?: unknown) => Response | Promise<Response>;

/**
 * An app: routes, middleware and error handling, served as a fetch handler.
 *
 * @example
 * const app = new App();
 * app.get('/users/:id', (c) => c.json({ id: c.req.param('id') }));
 * export default { fetch: app.fetch };
 */
export class App<E extends Env = Env> {
  readonly settings: Required<Omit<AppOptions, 'views' | 'threads' | 'trustProxy' | 'errorPage' | 'trailingSlash' | 'tasks'>> & {
    views: ViewRenderer | undefined;
    threads: ThreadPool | undefined;
    tasks: TaskList<any> | undefined;
  };
  #routes: RouteDef[] = [];
  /** This app's own routes, to refuse a bad or repeated one when it is registered. */
  #registered = new Router<null>();
  #middleware: { prefix: string; fn: Handler }[] = [];
  #mounts: AppParts<App<any>>['mounts'] = [];
  #errorHandler: ErrorHandler<E> | undefined;
  #notFoundHandler: NotFoundHandler<E> | undefined;
  #router: Router<CompiledRoute> | null = null;
  /** The 404/405 chain, made when the table compiles. */
  #fallback: CompiledRoute | undefined;
  #rootError: ErrorResponder | undefined;
  /** What requests through `app.fetch` and `app.request` get: plain Responses, no adapter hooks. */
  #entry: Entry;
  #events = new EventBus();
  #proxies: ProxyRule | undefined;
  #reported = false;
  #errorPage: ErrorPage | undefined;
  #trailingSlash: TrailingSlashRule | undefined;
  #layers: Instrument = (layers) => layers;

  constructor(options: AppOptions = {}) {
    this.settings = {
      bodyLimit: options.bodyLimit ?? DEFAULT_BODY_LIMIT,
      maxUrlLength: options.maxUrlLength ?? 8192,
      maxParamLength: options.maxParamLength ?? 1024,
      dev: options.dev ?? false,
      views: options.views,
      threads: options.threads,
      tasks: options.tasks,
    };
    this.#errorPage = options.errorPage;
    this.#trailingSlash = options.trailingSlash;
    const proxies = options.trustProxy;
    if (proxies !== undefined && typeof proxies?.clientIp !== 'function') throw new TypeError("trustProxy takes trustProxy(…) from 'rove/trust-proxy'");
    this.#proxies = proxies;
    // Features that emit from elsewhere switch on and off as listeners come and go.
    options.threads?.attach(this.#events);
    options.views?.attach?.(this.#events);
    options.tasks?.attach(this.#events);
    this.#entry = makeEntry(this.settings, this.#events, proxies, {});
    for (const m of ['get', 'post', 'put', 'patch', 'delete', 'head', 'options', 'all'] as const) {
      this[m] = ((path: string, ...handlers: Handler[]) => this.#add(m === 'all' ? ANY : m.toUpperCase(), path, handlers)) as RouteAdder<E, this>;
    }
  }

  /**
   * For adapters: a request handler for this runtime's server, with how it names the client and
   * builds and checks responses. What it binds applies to the requests it handles only: `app.fetch`
   * and `app.request` keep answering with plain Responses, whatever is served in the process.
   *
   * @example
   * const handle = app.bind({ address: (_req, info) => info.remoteAddr.hostname });
   * Deno.serve((req, info) => handle(req, env, ctx, info));
   */
  bind(binding: ServerBinding): BoundHandler {
    const entry = makeEntry(this.settings, this.#events, this.#proxies, binding);
    return (request, env, ctx, info) => this.#handle(entry, request, env, ctx, info);
  }

  // The route adders, one per method (`all` for any): made in the constructor, bound to the app.
  declare get: RouteAdder<E, this>;
  declare post: RouteAdder<E, this>;
  declare put: RouteAdder<E, this>;
  declare patch: RouteAdder<E, this>;
  declare delete: RouteAdder<E, this>;
  declare head: RouteAdder<E, this>;
  declare options: RouteAdder<E, this>;
  declare all: RouteAdder<E, this>;

  /** Register a route for any method name (matched case-insensitively), e.g. `app.method('PURGE', '/cache', h)`. */
  method<P extends string>(method: string, path: P, ...handlers: Handler<E, any, ParamKeys<P>>[]): this {
    return this.#add(method.toUpperCase(), path, handlers as Handler[]);
  }

  /**
   * Middleware for every path, or for a path prefix: `/api` covers `/api` and everything below it,
   * compared on decoded segments, so no spelling of a path under `/api` skips it.
   *
   * @example
   * app.use('/admin', basicAuthCheck);
   */
  use(...args: [Handler<E, any>, ...Handler<E, any>[]] | [string, ...Handler<E, any>[]]): this {
    const prefix = typeof args[0] === 'string' ? (args.shift() as string) : '/';
    parseScope(prefix); // refuse a bad prefix now, not at the first request
    for (const fn of args as Handler[]) this.#middleware.push({ prefix, fn });
    this.#changed();
    return this;
  }

  /**
   * For tracing libraries (`otel(app)` from 'rove/otel' calls it): `layers` sees each chain's
   * middleware and handlers, with its route pattern, when the chain is composed, and returns the
   * layers to run. Nothing is added per request. A second call replaces the first; only the app
   * that serves the requests uses it, not an app mounted in it.
   *
   * @example
   * app.instrument((layers, route) => [timed(route), ...layers]);
   */
  instrument(layers: Instrument): this {
    this.#layers = layers;
    this.#changed();
    return this;
  }

  /** Put `next` in the place of a mounted app (file-route hot reload); routes recompile on the next request. */
  unmount(app: App<any>, next: App<any>): this {
    const mount = this.#mounts.find((m) => m.app === app);
    if (mount === undefined) throw new Error('unmount: not mounted here');
    mount.app = next;
    this.#changed();
    return this;
  }

  /** Mount another app's routes and middleware under a prefix. */
  route(prefix: string, app: App<any>): this {
    if (app === this) throw new Error('An app cannot mount itself');
    this.#mounts.push({ prefix, app });
    this.#changed();
    return this;
  }

  /** The app's event bus: features and adapters emit to it. Emitting to nobody costs one lookup. */
  get events(): EventBus {
    return this.#events;
  }

  /**
   * Listen to every event, or to one kind. Returns the function that stops listening. With no
   * request listener the request path does no event work.
   *
   * @example
   * app.on('request:complete', (e) => console.log(e.metadata.status, e.metadata.path));
   * app.on('csrf:rejected', (e) => console.warn(e.metadata));
   */
  on(listener: Listener): () => void;
  on<K extends EventKind>(kind: K, listener: Listener<K>): () => void;
  on(kind: EventKind | Listener, listener?: Listener<any>): () => void {
    // The bus tells a listener from a kind itself.
    return this.#events.on(kind as EventKind, listener!);
  }

  /** Adapters call this once the server has stopped: it terminates the thread pool. */
  shutdown(): Promise<void> {
    return this.settings.threads?.close() ?? Promise.resolve();
  }

  onError(handler: ErrorHandler<E>): this {
    this.#errorHandler = handler;
    this.#changed();
    return this;
  }

  notFound(handler: NotFoundHandler<E>): this {
    this.#notFoundHandler = handler;
    this.#changed();
    return this;
  }

  /**
   * The fetch handler: `export default { fetch: app.fetch }` works as is. It always
   * resolves to a real Response (a 500 problem+json for anything that escapes), never rejects.
   * A HEAD request gets the GET response with its body: the server drops the body and keeps its length.
   */
  readonly fetch = (request: Request, env?: unknown, ctx?: ExecutionContext): Response | Promise<Response> =>
    this.#handle(this.#entry, request, env, ctx, undefined);

  /**
   * Send one request to the app, without a server: the first way to test it.
   * `input` is a path (`'/users/1?x=2'`, sent to `http://localhost`), a full URL or a `Request`;
   * `init` is fetch's. The request carries a `Host` header from its URL unless it names one.
   * Without `env`, handlers see an empty env; without `ctx`, `c.executionCtx.waitUntil` still runs
   * the work. A HEAD request answers without a body, as a server would send it.
   *
   * @example
   * const res = await app.request('/users/1');
   * expect(await res.json()).toEqual({ id: '1' });
   */
  async request(input: string | URL | Request, init?: RequestInit, env?: E['Bindings'], ctx?: ExecutionContext): Promise<Response> {
    // A path is what tests write most; a bare `new Request('/x')` would throw outside a browser.
    // A new Request (a copy, for a Request given) has headers of its own to set.
    const req = new Request(typeof input === 'string' && input.startsWith('/') ? `http://localhost${input}` : input, init);
    // A server always sees a Host; handlers and rules that compare origins read it.
    if (!req.headers.has('host')) req.headers.set('host', new URL(req.url).host);
    const res = await this.#handle(this.#entry, req, env ?? {}, ctx, undefined);
    if (req.method !== 'HEAD' || res.body === null) return res;
    res.body.cancel().catch(() => {}); // a stream that never ends stops its producer
    return new Response(null, res);
  }

  /** Like `fetch`, for any RequestLike, as an unbound app answers it (`bind` gives an adapter its own). */
  handle(request: RequestLike, env: unknown, ctx: ExecutionContext | undefined, info?: unknown): Response | Promise<Response> {
    return this.#handle(this.#entry, request, env, ctx, info);
  }

  #handle(entry: Entry, request: RequestLike, env: unknown, ctx: ExecutionContext | undefined, info: unknown): Response | Promise<Response> {
    try {
      return this.#dispatch(entry, request, env, ctx, info);
    } catch (error) {
      // Only a table that cannot compile (a route registered twice) gets here: say so once.
      if (!this.#reported) console.error('rove: cannot serve:', error);
      this.#reported = true;
      return internalError();
    }
  }

  #dispatch(entry: Entry, request: RequestLike, env: unknown, ctx: ExecutionContext | undefined, info: unknown): Response | Promise<Response> {
    const router = this.#router ?? this.#build();
    const url = request.url;
    // A relative URL (Bun, for a Host it cannot parse) starts at the path.
    const pathStart = url.charCodeAt(0) === 47 ? 0 : url.indexOf('/', url.indexOf('//') + 2);
    const q = url.indexOf('?', pathStart);
    const raw = pathStart === -1 ? '/' : q === -1 ? url.slice(pathStart) : url.slice(pathStart, q);
    const query = q === -1 ? '' : url.slice(q + 1);
    const long = url.length > this.settings.maxUrlLength;
    // A static route, or a static route's path that has no route for this method (a preflight, a
    // 405): normalising and matching would find nothing more, so that route or the 404/405/OPTIONS
    // chain runs at once.
    const method = request.method;
    const known = long ? undefined : (router.exact(method, raw) ?? (router.unrouted(method, raw) ? this.#fallback : undefined));
    if (known !== undefined) return this.#start(entry, new Context<E>(entry, request, raw, query, EMPTY_PARAMS, env, ctx, info), request, known);
    // Everything but a static route: normalise, match, or refuse.
    let path = raw;
    let match: Match<CompiledRoute> | null = null;
    let error: HttpError | undefined;
    try {
      if (long) throw new HttpError(414, 'URL too long');
      path = normalizePath(raw);
      // A Request cannot hold TRACE or TRACK (fetch forbids them), and echoing a request is not
      // something an app should do by accident: refused before any middleware could touch c.req.raw.
      if (method === 'TRACE' || method === 'TRACK')
        throw new HttpError(405, `${method} is not supported`, { headers: { allow: allowHeader(router.allowed(path)) } });
      match = router.match(method, path, this.settings.maxParamLength);
      // A malformed escape: no param decodes, and no middleware scope can be decided.
      if (match ? match.malformed : path.includes('%') && decodeSegments(path) === null) throw new HttpError(400, MALFORMED);
      if (match?.tooLong !== undefined) throw new HttpError(414, `Path parameter "${match.tooLong}" is too long`);
    } catch (thrown) {
      error = thrown as HttpError;
    }
    const c = new Context<E>(entry, request, path, query, error || !match ? EMPTY_PARAMS : match.params, env, ctx, info);
    if (error === undefined && match !== null) return this.#start(entry, c, request, match.value);
    // 404, 405 and automatic OPTIONS run through the middleware whose scope covers the path;
    // a refused path goes to the app's error handler.
    return this.#start(
      entry,
      c,
      request,
      error === undefined
        ? this.#fallback!
        : {
            chain: () => {
              throw error;
            },
            onError: this.#rootError!,
            pattern: null,
          },
    );
  }

  #start(entry: Entry, c: Context<E>, request: RequestLike, route: CompiledRoute): Response | Promise<Response> {
    // The only event work on the request path when nobody listens: this one check.
    const bus = this.#events;
    if (bus.observing) return observeRequest(bus, request, c, route.pattern, () => runChain(entry, c, route.chain, route.onError));
    return runChain(entry, c, route.chain, route.onError);
  }

  /**
   * The route table, for tooling and tests: method and pattern of every route, mounts included.
   * Each entry's `handlers` (what describes a route, as rove/contract's openapi() does) is not
   * enumerable: the entries print and compare as `{ method, path }`.
   */
  get routeList(): { method: string; path: string; readonly handlers: readonly Handler[] }[] {
    const out: { method: string; path: string; readonly handlers: readonly Handler[] }[] = [];
    this.#walk((_app, route, full) => {
      out.push(Object.defineProperty({ method: route.method, path: full }, 'handlers', { value: [...route.handlers] }) as (typeof out)[number]);
    });
    return out;
  }

  #add(method: string, path: string, handlers: Handler[]): this {
    if (handlers.length === 0) throw new Error(`No handler: ${path}`);
    if (method === 'TRACE' || method === 'TRACK') throw new Error(`${method} routes are not supported: ${method} always answers 405`);
    // A bad pattern or a route this app already has throws here, not at the first request.
    const variants = routeVariants(parseRoute(path));
    this.#registered.add(method, path, null, variants);
    this.#routes.push({ method, path, handlers, variants });
    this.#changed();
    return this;
  }

  #changed(): void {
    this.#router = null;
  }

  /** Visit every route with its full path, and collect every app's middleware with full scopes. */
  #walk(visit: (app: App<any>, route: RouteDef, full: string, mws: ScopedMiddleware[]) => void): ScopedMiddleware[] {
    return walkApps<App<any>>((app) => ({ routes: app.#routes, middleware: app.#middleware, mounts: app.#mounts }), this, '', [], visit);
  }

  /** Compile the route table; each chain (the 404/405 one too) is composed on its first request. */
  #build(): Router<CompiledRoute> {
    const router = new Router<CompiledRoute>();
    const rootError = (this.#rootError = this.#errorResponder(this));
    const scoped = this.#walk((app, route, full, mws) => {
      const onError = app === this ? rootError : this.#errorResponder(app);
      const compiled = (variant: Segment[]) => lazyRoute(full, onError, () => compose(this.#layers(variantChain(mws, variant, route.handlers), full), onError));
      // An unmounted route's full path is its own: its variants are parsed already.
      router.add(route.method, full, compiled, full === route.path ? route.variants : undefined);
    });
    this.#fallback = lazyRoute(null, rootError, () => unmatchedChain(scoped, this.#noRoute, rootError, this.#layers));
    this.#router = router;
    return router;
  }

  #errorResponder(app: App<any>): ErrorResponder {
    const custom = app.#errorHandler ?? this.#errorHandler;
    const dev = this.settings.dev;
    // The default answer, and the default report: an error nobody handled is logged once.
    const fallback = (error: unknown, c: Context<any, any>) => {
      if (error instanceof HttpError && error.status === 404 && this.#notFoundHandler) return this.#notFoundHandler(c);
      logEscaped(error, c);
      return this.#errorAnswer(error, c, dev);
    };
    if (!custom) return fallback;
    return async (error, c) => {
      try {
        return await custom(error, c);
      } catch (again) {
        return fallback(again, c);
      }
    };
  }

  /** The end of every 404/405 chain: the answer depends only on the request. */
  #noRoute: Handler = (c) => {
    const answer = elsewhere(this.#router!, c, this.#trailingSlash);
    if (answer !== undefined) return answer;
    if (this.#notFoundHandler) return this.#notFoundHandler(c as Context<E>);
    return this.#errorAnswer(new HttpError(404), c, false);
  };

  /** The default answer to an error: the app's error page when it has one and the client wants it, else problem+json. */
  #errorAnswer(error: unknown, c: Context<any, any>, dev: boolean): Response {
    return this.#errorPage?.(error, c.req.header('accept') ?? null, dev) ?? problemAnswer(c, error, dev);
  }
}
