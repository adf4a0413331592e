import { compose, type ErrorResponder, type Handler } from './compose.ts';
import { Context, type ContextConfig, type Env, type ExecutionContext, type ViewRenderer } from './context.ts';
import { errorResponse, HttpError } from './errors.ts';
import type { RequestLike } from './request.ts';
import { LightResponse, withHeaders } from './response.ts';
import { ANY, Router } from './router.ts';
import { DEFAULT_BODY_LIMIT } from './body.ts';
import { EventBus, observeRequest, type EventKind, type Listener } from './events.ts';
import type { WorkerPool } from './workers/pool.ts';
import { mountFileRoutes, type FileRoutesOptions, type RouteLoader, type RouteManifest } from './fs-routes/index.ts';

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
  /** The worker pool handlers reach as `c.worker` (`createWorkerPool`); without one, `c.worker.run()` answers 503. */
  workers?: WorkerPool;
}

export type NotFoundHandler<E extends Env = Env> = (c: Context<E>) => Response | Promise<Response>;
export type ErrorHandler<E extends Env = Env> = (error: unknown, c: Context<E>) => Response | Promise<Response>;

interface RouteDef {
  method: string;
  path: string;
  handlers: Handler[];
}
interface MiddlewareDef {
  prefix: string;
  fn: Handler;
}
interface Mount {
  prefix: string;
  app: App<any>;
}
interface CompiledRoute {
  chain: (c: Context<any, any>) => unknown;
  onError: ErrorResponder;
  pattern: string;
}
/** Middleware with its full prefix and the app that registered it. */
interface ScopedMiddleware {
  segments: string[];
  test: RegExp;
  fn: Handler;
  owner: App<any>;
}

type Result = Response | LightResponse;

const VIEW_KINDS = ['view:compiled', 'view:rendered', 'view:error'] as const;

/**
 * Handlers typed so that the last one sees what every earlier one validated:
 * each earlier handler's input type is inferred from it (e.g. `validate(...)`),
 * and the last one defaults to their intersection.
 */
export interface RouteAdder<E extends Env, Self> {
  <I1 = {}>(path: string, h1: Handler<E, I1>): Self;
  <I1 = {}, I2 = I1>(path: string, h1: Handler<E, I1>, h2: Handler<E, I2>): Self;
  <I1 = {}, I2 = I1, I3 = I1 & I2>(path: string, h1: Handler<E, I1>, h2: Handler<E, I2>, h3: Handler<E, I3>): Self;
  <I1 = {}, I2 = I1, I3 = I1 & I2, I4 = I1 & I2 & I3>(path: string, h1: Handler<E, I1>, h2: Handler<E, I2>, h3: Handler<E, I3>, h4: Handler<E, I4>): Self;
  <I1 = {}, I2 = I1, I3 = I1 & I2, I4 = I1 & I2 & I3, I5 = I1 & I2 & I3 & I4>(
    path: string,
    h1: Handler<E, I1>,
    h2: Handler<E, I2>,
    h3: Handler<E, I3>,
    h4: Handler<E, I4>,
    h5: Handler<E, I5>,
  ): Self;
  (path: string, ...handlers: Handler<E, any>[]): Self;
}

export class App<E extends Env = Env> {
  readonly settings: Required<Omit<AppOptions, 'views' | 'workers'>> & { views: ViewRenderer | undefined; workers: WorkerPool | undefined };
  /** The event bus (`app.on` listens on it); adapters and the worker pool emit to it. */
  readonly events = new EventBus();
  private routeDefs: RouteDef[] = [];
  private middleware: MiddlewareDef[] = [];
  private mounts: Mount[] = [];
  private errorHandler: ErrorHandler<E> | undefined;
  private notFoundHandler: NotFoundHandler<E> | undefined;
  private router: Router<CompiledRoute> | null = null;
  private scoped: ScopedMiddleware[] = [];
  private config: ContextConfig;

  constructor(options: AppOptions = {}) {
    this.settings = {
      bodyLimit: options.bodyLimit ?? DEFAULT_BODY_LIMIT,
      maxUrlLength: options.maxUrlLength ?? 8192,
      maxParamLength: options.maxParamLength ?? 1024,
      trailingSlash: options.trailingSlash ?? 'strict',
      dev: options.dev ?? false,
      views: options.views,
      workers: options.workers,
    };
    this.config = { bodyLimit: this.settings.bodyLimit, views: this.settings.views, dev: this.settings.dev, workers: options.workers };
    options.workers?.attach(this.events);
    const views = options.views;
    if (views?.observe) {
      const forward = (event: { kind: 'view:compiled' | 'view:rendered' | 'view:error'; metadata: any }) => this.events.emit(event.kind, event.metadata);
      // Views time their work only while someone listens for view events.
      this.events.watch(() => views.observe!(VIEW_KINDS.some((k) => this.events.has(k)) ? forward : undefined));
    }
  }

  get: RouteAdder<E, this> = (path: string, ...handlers: Handler[]) => this.add('GET', path, handlers);
  post: RouteAdder<E, this> = (path: string, ...handlers: Handler[]) => this.add('POST', path, handlers);
  put: RouteAdder<E, this> = (path: string, ...handlers: Handler[]) => this.add('PUT', path, handlers);
  patch: RouteAdder<E, this> = (path: string, ...handlers: Handler[]) => this.add('PATCH', path, handlers);
  delete: RouteAdder<E, this> = (path: string, ...handlers: Handler[]) => this.add('DELETE', path, handlers);
  head: RouteAdder<E, this> = (path: string, ...handlers: Handler[]) => this.add('HEAD', path, handlers);
  options: RouteAdder<E, this> = (path: string, ...handlers: Handler[]) => this.add('OPTIONS', path, handlers);
  all: RouteAdder<E, this> = (path: string, ...handlers: Handler[]) => this.add(ANY, path, handlers);

  /** Register a route for any method name, e.g. `app.on`-style custom verbs. */
  method(method: string, path: string, ...handlers: Handler<E, any>[]): this {
    return this.add(method.toUpperCase(), path, handlers);
  }

  /** Middleware for every path, or for a path prefix (`/api` covers `/api` and everything below it). */
  use(...args: [Handler<E, any>, ...Handler<E, any>[]] | [string, ...Handler<E, any>[]]): this {
    const prefix = typeof args[0] === 'string' ? (args.shift() as string) : '/';
    for (const fn of args as Handler[]) this.middleware.push({ prefix, fn });
    this.router = null;
    return this;
  }

  /**
   * File routes (src/fs-routes): a routes directory, scanned at startup on Node, Deno and Bun
   * (`import 'rove/fs-routes'` installs the scanner) and watched in dev; or, on every runtime,
   * the manifest `npm run build:routes` writes, registered at once.
   */
  routes(source: RouteManifest, options?: { prefix?: string }): this;
  routes(source: string | URL | RouteLoader, options?: FileRoutesOptions): Promise<this>;
  routes(source: RouteManifest | string | URL | RouteLoader, options?: FileRoutesOptions): this | Promise<this> {
    return mountFileRoutes(this, () => new App(), source, options) as this | Promise<this>;
  }

  /** Take a mounted app out again, or put `next` in its place (file-route hot reload); routes recompile on the next request. */
  unmount(app: App<any>, next?: App<any>): this {
    const i = this.mounts.findIndex((m) => m.app === app);
    if (i === -1) throw new Error('unmount: that app is not mounted here');
    if (next === undefined) this.mounts.splice(i, 1);
    else this.mounts[i] = { prefix: this.mounts[i].prefix, app: next };
    this.router = null;
    return this;
  }

  /** Mount another app's routes and middleware under a prefix. */
  route(prefix: string, app: App<any>): this {
    if (app === this) throw new Error('An app cannot be mounted on itself');
    this.mounts.push({ prefix, app });
    this.router = null;
    return this;
  }

  /**
   * Listen to every event, or to one kind: `app.on('request:complete', (e) => ...)`.
   * Returns the function that stops listening. With no request listener the request path does no event work.
   */
  on(listener: Listener): () => void;
  on<K extends EventKind>(kind: K, listener: Listener<K>): () => void;
  on(a: EventKind | Listener, b?: Listener<any>): () => void {
    return typeof a === 'function' ? this.events.on(a) : this.events.on(a, b!);
  }

  /** Adapters call this once the server has stopped: it terminates the worker pool. */
  shutdown(): Promise<void> {
    return this.settings.workers?.close() ?? Promise.resolve();
  }

  onError(handler: ErrorHandler<E>): this {
    this.errorHandler = handler;
    return this;
  }

  notFound(handler: NotFoundHandler<E>): this {
    this.notFoundHandler = handler;
    return this;
  }

  /** The fetch handler: `export default { fetch: app.fetch }` works as is. */
  readonly fetch = (request: Request, env?: unknown, ctx?: ExecutionContext): Response | Promise<Response> => {
    const out = this.handle(request, env, ctx, false);
    return out instanceof Promise ? out.then((r) => real(r, request.method)) : real(out, request.method);
  };

  /**
   * For adapters: like `fetch`, but takes any RequestLike and, with `light`,
   * may answer a LightResponse that the adapter writes without building a Response.
   */
  handle(request: RequestLike, env: unknown, ctx: ExecutionContext | undefined, light: boolean): Result | Promise<Result> {
    const router = this.router ?? this.build();
    const url = request.url;
    const pathStart = url.indexOf('/', url.indexOf('//') + 2);
    const q = url.indexOf('?', pathStart);
    const path = pathStart === -1 ? '/' : q === -1 ? url.slice(pathStart) : url.slice(pathStart, q);
    const query = q === -1 ? '' : url.slice(q + 1);
    if (url.length > this.settings.maxUrlLength) {
      return this.reject(new HttpError(414, 'URL too long'), request, path, query, env, ctx, light);
    }
    const method = request.method;
    const match = router.match(method, path, this.settings.maxParamLength);
    if (match === null) return this.unmatched(request, method, path, query, env, ctx, light);
    if (match.malformed) return this.reject(new HttpError(400, 'Malformed percent-encoding in the path'), request, path, query, env, ctx, light);
    if (match.tooLong !== undefined) return this.reject(new HttpError(414, `Path parameter "${match.tooLong}" is too long`), request, path, query, env, ctx, light);
    const route = match.value;
    const c = new Context<E>(this.config, request, path, query, match.params, env, ctx, light);
    // The only event work on the request path when nobody listens: this one check.
    if (this.events.observing) return observeRequest(this.events, request, c, route.pattern, () => this.respond(c, route.chain, route.onError));
    return this.respond(c, route.chain, route.onError);
  }

  /** Run a route's chain and turn what it returns or throws into the response. */
  private respond(c: Context<E>, chain: (c: Context<any, any>) => unknown, onError: ErrorResponder): Result | Promise<Result> {
    let out: unknown;
    try {
      out = chain(c);
    } catch (error) {
      return this.fail(error, c, onError);
    }
    if (out instanceof Promise) {
      return out.then(
        (value) => finish(c, value),
        (error) => this.fail(error, c, onError),
      );
    }
    return finish(c, out);
  }

  /** The route table, for tooling and tests: method and pattern of every route, mounts included. */
  get routeList(): { method: string; path: string }[] {
    const out: { method: string; path: string }[] = [];
    this.walk('', [], (app, route, full) => {
      void app;
      out.push({ method: route.method, path: full });
    });
    return out;
  }

  private add(method: string, path: string, handlers: Handler[]): this {
    if (handlers.length === 0) throw new Error(`No handler for ${method} ${path}`);
    this.routeDefs.push({ method, path, handlers });
    this.router = null;
    return this;
  }

  /** Visit every route with its full path, and collect every app's middleware with full prefixes. */
  private walk(prefix: string, parents: ScopedMiddleware[], visit: (app: App<any>, route: RouteDef, full: string, mws: ScopedMiddleware[]) => void): ScopedMiddleware[] {
    const own = this.middleware.map((m) => scope(joinPath(prefix, m.prefix), m.fn, this));
    const mws = [...parents, ...own];
    for (const route of this.routeDefs) visit(this, route, joinPath(prefix, route.path), mws);
    const all = [...own];
    for (const m of this.mounts) all.push(...m.app.walk(joinPath(prefix, m.prefix), mws, visit));
    return all;
  }

  /** Compile the route table: each route's middleware chain is composed here, once. */
  private build(): Router<CompiledRoute> {
    const router = new Router<CompiledRoute>();
    const rootError = this.errorResponder(this);
    this.scoped = this.walk('', [], (app, route, full, mws) => {
      const routeSegments = splitSegments(full);
      const chain: Handler[] = [];
      for (const m of mws) {
        const rel = relate(m.segments, routeSegments);
        if (rel === 'covers') chain.push(m.fn);
        else if (rel === 'maybe') chain.push(guard(m.test, m.fn));
      }
      chain.push(...route.handlers);
      const onError = app === this ? rootError : this.errorResponder(app);
      router.add(route.method, full, { chain: compose(chain, onError), onError, pattern: full });
    });
    this.router = router;
    return router;
  }

  private errorResponder(app: App<any>): ErrorResponder {
    const custom = app.errorHandler ?? this.errorHandler;
    const dev = this.settings.dev;
    const fallback = (error: unknown, c: Context<any, any>) => {
      if (error instanceof HttpError && error.status === 404 && this.notFoundHandler) return this.notFoundHandler(c);
      return errorResponse(error, c.req.header('accept') ?? null, dev);
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

  private fail(error: unknown, c: Context<E>, onError: ErrorResponder): Promise<Result> {
    c.error = error;
    return Promise.resolve()
      .then(() => onError(error, c))
      .catch((again) => errorResponse(again, null, this.settings.dev))
      .then((res) => finish(c, res));
  }

  /** 404, 405 and automatic OPTIONS, run through the middleware whose prefix covers the path. */
  private unmatched(request: RequestLike, method: string, path: string, query: string, env: unknown, ctx: ExecutionContext | undefined, light: boolean): Result | Promise<Result> {
    const router = this.router!;
    const allowed = router.allowed(path);
    let final: Handler;
    if (allowed.length > 0) {
      const allow = (allowed.includes('OPTIONS') ? allowed : [...allowed, 'OPTIONS']).join(', ');
      final =
        method === 'OPTIONS'
          ? () => new Response(null, { status: 204, headers: { allow } })
          : () => {
              throw new HttpError(405, `${method} is not allowed here`, { headers: { allow } });
            };
    } else {
      const alternate = this.settings.trailingSlash === 'redirect' ? otherSlash(path) : null;
      if (alternate !== null && router.match(method, alternate) !== null) {
        const location = alternate + (query ? '?' + query : '');
        final = () => new Response(null, { status: method === 'GET' || method === 'HEAD' ? 301 : 308, headers: { location } });
      } else {
        final = (c) => (this.notFoundHandler ? this.notFoundHandler(c as Context<E>) : errorResponse(new HttpError(404), c.req.header('accept') ?? null, false));
      }
    }
    const chain = this.scoped.filter((m) => m.test.test(path)).map((m) => m.fn);
    chain.push(final);
    const onError = this.errorResponder(this);
    const c = new Context<E>(this.config, request, path, query, {}, env, ctx, light);
    const run = compose(chain, onError);
    if (this.events.observing) return observeRequest(this.events, request, c, null, () => this.respond(c, run, onError));
    return this.respond(c, run, onError);
  }

  /** Answer a request refused before routing (URL too long, bad encoding) through the error handler. */
  private reject(error: HttpError, request: RequestLike, path: string, query: string, env: unknown, ctx: ExecutionContext | undefined, light: boolean): Promise<Result> {
    const c = new Context<E>(this.config, request, path, query, {}, env, ctx, light);
    if (this.events.observing) return observeRequest(this.events, request, c, null, () => this.fail(error, c, this.errorResponder(this))) as Promise<Result>;
    return this.fail(error, c, this.errorResponder(this));
  }
}

function finish(c: Context<any, any>, value: unknown): Result {
  const res = (value ?? c._res) as Result | undefined;
  if (res === undefined) throw new Error('The handler returned no response');
  if (res instanceof LightResponse || res === c._made) return res;
  const pending = c._pendingHeaders;
  if (!(res instanceof Response)) throw new TypeError('A handler must return a Response (c.json, c.text, c.html, c.body or new Response)');
  return pending === null ? res : withHeaders(res, pending);
}

/** A real Response; HEAD answers drop the body. */
function real(r: Result, method: string): Response {
  const res = r instanceof LightResponse ? r.toResponse() : r;
  if (method === 'HEAD' && res.body !== null) return new Response(null, { status: res.status, headers: res.headers });
  return res;
}

function joinPath(prefix: string, path: string): string {
  const p = prefix.endsWith('/') ? prefix.slice(0, -1) : prefix;
  if (path === '/' || path === '') return p === '' ? '/' : p;
  if (path === '*') return p + '/*';
  return p + (path.startsWith('/') ? path : '/' + path);
}

function splitSegments(path: string): string[] {
  if (path === '/' || path === '*' || path === '/*' || path === '') return path.endsWith('*') ? ['*'] : [];
  return path.slice(1).split('/');
}

function scope(prefix: string, fn: Handler, owner: App<any>): ScopedMiddleware {
  const clean = prefix.replace(/\/\*$|\*$/, '').replace(/\/$/, '');
  const segments = clean === '' ? [] : clean.slice(1).split('/');
  const body = segments
    .map((s) => (s.startsWith(':') ? '[^/]+' : s === '*' ? '.*' : escapeRegExp(encodeSegment(s))))
    .join('/');
  return { segments, test: new RegExp(segments.length === 0 ? '^/' : `^/${body}(?:/|$)`), fn, owner };
}

function isDynamic(segment: string): boolean {
  return segment.startsWith(':') || segment.startsWith('*');
}

/** Does a middleware prefix cover every request of a route, some of them, or none? */
function relate(prefix: string[], route: string[]): 'covers' | 'maybe' | 'none' {
  let result: 'covers' | 'maybe' = 'covers';
  for (let i = 0; i < prefix.length; i++) {
    const p = prefix[i];
    const r = route[i];
    if (r === undefined) return 'none';
    if (r.startsWith('*')) return 'maybe';
    if (isDynamic(p)) {
      if (r.endsWith('?')) result = 'maybe';
      continue;
    }
    if (isDynamic(r)) result = 'maybe';
    else if (p !== r) return 'none';
  }
  return result;
}

function guard(test: RegExp, fn: Handler): Handler {
  return (c, next) => (test.test(c.path) ? fn(c, next) : next());
}

function otherSlash(path: string): string | null {
  if (path === '/') return null;
  return path.endsWith('/') ? path.slice(0, -1) : path + '/';
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

function encodeSegment(text: string): string {
  return /^[\w\-.~!$&'()*+,;=:@]*$/.test(text) ? text : encodeURIComponent(text);
}
