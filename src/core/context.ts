import { checkHeader } from '../http/headers.ts';
import type { Params } from '../routing/router.ts';
import { NO_THREADS, type ThreadRunner } from '../threads/runner.ts';
import type { ViewRenderer } from '../views/renderer.ts';
import { HttpError } from './errors.ts';
import type { EventKind, EventMap } from './event-map.ts';
import { type RequestLike, RoveRequest } from './request.ts';
import { buildResponse, type HeaderRecord } from './response.ts';
import { type StreamWriter, writerStream } from './stream.ts';

export type { StreamWriter } from './stream.ts';

/** Type parameters of an app: Workers bindings and per-request variables. */
export interface Env {
  Bindings?: object;
  Variables?: object;
}

export interface ExecutionContext {
  waitUntil(promise: Promise<unknown>): void;
  passThroughOnException?(): void;
}

/** Builds the responses helpers return, in place of `new Response` (an adapter's fast path). */
export type ResponseFactory = (body: string | Uint8Array | null, status: number, headers: HeaderRecord) => Response;

/** What a context asks of the app's event bus (EventBus). */
export interface EventSink {
  emit<K extends EventKind>(kind: K, metadata: EventMap[K] | (() => EventMap[K]), ctx?: ExecutionContext): void;
}

/**
 * What a context reads: the app's settings and event bus, and what the entry that received the
 * request supplies (`app.fetch` supplies nothing; an adapter's `app.bind` may supply a response
 * factory and a header lookup, for its own requests only).
 */
export interface ContextConfig {
  bodyLimit: number;
  views: ViewRenderer | undefined;
  dev: boolean;
  events: EventSink;
  threads: ThreadRunner | undefined;
  respond: ResponseFactory | undefined;
  /** The adapter's one-header lookup (see ServerBinding.header). */
  header: ((request: RequestLike, name: string) => string | null) | undefined;
  /** The client address of a request: the adapter's socket address, then the app's trustProxy rule. */
  clientIp(request: RequestLike, info: unknown): string | undefined;
  /** The protocol a trusted proxy names for the request, if any (the app's trustProxy rule). */
  protocol(request: RequestLike, info: unknown): 'http' | 'https' | undefined;
}

type Bindings<E extends Env> = E['Bindings'] extends object ? E['Bindings'] : Record<string, unknown>;
type Variables<E extends Env> = E['Variables'] extends object ? E['Variables'] : Record<string, unknown>;

export type StatusCode = number;
export type RedirectStatus = 301 | 302 | 303 | 307 | 308;

/** `c.render`'s options: the status, extra headers, and whether to stream the output. */
export interface RenderOptions {
  status?: StatusCode;
  stream?: boolean;
  headers?: Record<string, string>;
}

const JSON_TYPE = 'application/json';
const JSON_INIT: ResponseInit = { headers: { 'content-type': JSON_TYPE } };
// The Fetch spec's default for a string body: a bare `new Response(text)` on Deno, Bun and workerd carries the same.
const TEXT_TYPE = 'text/plain;charset=UTF-8';
const HTML_TYPE = 'text/html; charset=utf-8';
const HTML_INIT: ResponseInit = { headers: { 'content-type': HTML_TYPE } };

// Response.json is the fast path where it sets exactly application/json (Bun adds a charset):
// asked once, of the first response it makes.
let nativeJson: boolean | undefined;
// A bare string body carries its text/plain type in the headers (Bun adds it only when it writes a
// GET body): asked once, of the first such response.
let nativeText: boolean | undefined;

/** Keeps background work alive where the runtime gives no execution context (Node, Deno, Bun). */
const backgroundContext: ExecutionContext = {
  waitUntil(promise) {
    promise.catch(() => {});
  },
  passThroughOnException() {},
};

/**
 * The state the app, compose and the core's validate() and bodyLimit() keep in a context.
 * Not exported from the package: middleware works through the public members.
 */
export interface ContextState {
  /** The response so far (what the chain returned or a middleware set), without c.res's throw. */
  res(c: Context<any, any>): Response | undefined;
  /** The last response a helper built: it already carries the headers set through `c.header()`. */
  made(c: Context<any, any>): Response | undefined;
  /** Headers set through `c.header()`, merged into a response the handler built itself. */
  pendingHeaders(c: Context<any, any>): HeaderRecord | null;
  setValid(c: Context<any, any>, target: string, value: unknown): void;
  setBodyLimit(c: Context<any, any>, bytes: number): void;
}
export let state: ContextState;

/**
 * One object per request: the request side, per-request state, and the response helpers.
 * `K` holds the route's param keys (from its pattern, see path-params.ts) to type `c.req.param()`.
 */
export class Context<E extends Env = Env, I = {}, K extends string = string> {
  readonly env: Bindings<E>;
  /** The error a handler threw, for middleware that runs after `next()`. */
  error: unknown;

  #config: ContextConfig;
  #raw: RequestLike;
  #info: unknown;
  #query: string;
  #req: RoveRequest<K> | undefined;
  #ctx: ExecutionContext | undefined;
  #vars: Record<string, unknown> | undefined;
  #headers: HeaderRecord | null = null;
  #status = 200;
  // A field without an initializer starts undefined all the same: no `= undefined` to ship.
  #res: Response | undefined;
  #made: Response | undefined;
  #valid: Record<string, unknown> | undefined;
  #bodyLimit: number;

  static {
    state = {
      res: (c) => c.#res,
      made: (c) => c.#made,
      pendingHeaders: (c) => c.#headers,
      setValid: (c, target, value) => {
        (c.#valid ??= {})[target] = value;
      },
      setBodyLimit: (c, bytes) => {
        c.#bodyLimit = bytes;
      },
    };
  }

  constructor(
    config: ContextConfig,
    raw: RequestLike,
    /** The pathname, percent-encoded as sent, with dot segments resolved. */
    readonly path: string,
    query: string,
    readonly params: Params,
    env: unknown,
    ctx: ExecutionContext | undefined,
    /** What the adapter knows about the connection (passed back to it for the client address). */
    info?: unknown,
  ) {
    this.#config = config;
    this.#raw = raw;
    this.#query = query;
    this.#info = info;
    this.env = (env ?? {}) as Bindings<E>;
    this.#ctx = ctx;
    this.#bodyLimit = config.bodyLimit;
  }

  get req(): RoveRequest<K> {
    return (this.#req ??= new RoveRequest<K>(this.#raw, this.path, this.#query, this.params, this.#config, this.#info, () => this.#bodyLimit));
  }

  /**
   * The app's thread pool (`new App({ threads })`): `await c.threads.run(payload)`.
   * Without a pool, `run()` answers 503.
   */
  get threads(): ThreadRunner {
    return this.#config.threads ?? NO_THREADS;
  }

  get executionCtx(): ExecutionContext {
    return this.#ctx ?? backgroundContext;
  }

  /** A middleware may wrap it for what runs after it (rove/otel traces `waitUntil` work this way). */
  set executionCtx(ctx: ExecutionContext) {
    this.#ctx = ctx;
  }

  /** The current response. Middleware reads and replaces it after `next()`. */
  get res(): Response {
    const r = this.#res;
    if (r === undefined) throw new Error('No c.res before next() returns');
    return r;
  }
  set res(value: Response) {
    this.#res = value;
  }

  set<K extends keyof Variables<E> & string>(key: K, value: Variables<E>[K]): void {
    (this.#vars ??= {})[key] = value;
  }
  get<K extends keyof Variables<E> & string>(key: K): Variables<E>[K] {
    return this.#vars?.[key] as Variables<E>[K];
  }
  get var(): Readonly<Variables<E>> {
    return (this.#vars ??= {}) as Variables<E>;
  }

  /**
   * Emit an app event to `app.on(kind, …)` listeners. Pass a function to build
   * the metadata only when someone listens, so an unheard event costs one lookup.
   * Middleware reports refusals this way; a feature adds its kinds to `EventMap`.
   *
   * @example
   * c.emit('csrf:rejected', () => ({ rule: 'origin', origin: c.req.header('origin') }));
   */
  emit<K extends EventKind>(kind: K, metadata: EventMap[K] | (() => EventMap[K])): void {
    this.#config.events.emit(kind, metadata, this.#ctx);
  }

  /**
   * The value a `validate(target, schema)` middleware produced for this request.
   * Throws when no `validate(target, …)` ran before the handler.
   *
   * @example
   * app.post('/users', validate('json', schema), (c) => c.json(c.valid('json'), 201));
   */
  valid<T extends keyof I & string>(target: T): I[T] {
    const values = this.#valid;
    if (values === undefined || !Object.hasOwn(values, target)) throw new Error(`No validate('${target}') before this handler`);
    return values[target] as I[T];
  }

  /**
   * Set (or with `undefined`, remove) a response header; `append` keeps earlier values.
   * A name that is not a token, or a value with a control character (CR and LF included), throws
   * here, the same on every runtime (see `checkHeader`).
   */
  header(name: string, value: string | undefined, options?: { append?: boolean }): void {
    checkHeader(name, value ?? '');
    const key = name.toLowerCase();
    const h = (this.#headers ??= {});
    if (value === undefined) {
      delete h[key];
    } else if (options?.append) {
      // An array even for one value: the response's own value of this header is kept beside it.
      const prev = h[key];
      h[key] = prev === undefined ? [value] : typeof prev === 'string' ? [prev, value] : [...prev, value];
    } else {
      h[key] = value;
    }
  }

  status(code: StatusCode): void {
    this.#status = code;
  }

  /** A JSON response (`application/json`); always a real `Response`. */
  json(data: unknown, status?: StatusCode, headers?: Record<string, string>): Response {
    // The native Response.json skips a headers object (docs/design-notes.md has the figures).
    const code = status ?? this.#status;
    if (this.#bare(headers)) {
      if (typeof data === 'object' && data !== null && nativeJson !== false) {
        const res = code === 200 ? Response.json(data) : Response.json(data, { status: code });
        if ((nativeJson ??= res.headers.get('content-type') === JSON_TYPE)) return (this.#made = res);
      }
      // Where Response.json adds a charset (Bun): one shared init, no header record to build.
      if (code === 200) return (this.#made = new Response(JSON.stringify(data) ?? 'null', JSON_INIT));
    }
    return this.#make(JSON.stringify(data) ?? 'null', JSON_TYPE, status, headers);
  }

  text(text: string, status?: StatusCode, headers?: Record<string, string>): Response {
    // A bare string body gets the spec's text/plain content type: no headers object to build.
    if (this.#bare(headers) && nativeText !== false) {
      const code = status ?? this.#status;
      const res = code === 200 ? new Response(text) : new Response(text, { status: code });
      if ((nativeText ??= res.headers.get('content-type') !== null)) return (this.#made = res);
    }
    // Where a runtime adds the type only when it writes the body (Bun), it is named here, so the
    // response says the same in a test as on the wire, and HEAD as GET.
    return this.#make(text, TEXT_TYPE, status, headers);
  }

  html(html: string, status?: StatusCode, headers?: Record<string, string>): Response {
    // The common case (c.render included) shares one init: no header record to build per response.
    if (this.#bare(headers) && (status ?? this.#status) === 200) return (this.#made = new Response(html, HTML_INIT));
    return this.#make(html, HTML_TYPE, status, headers);
  }

  /** A response with any body; the content type is yours to set. */
  body(data: BodyInit | null, status?: StatusCode, headers?: Record<string, string>): Response {
    if (data === null || typeof data === 'string' || data instanceof Uint8Array) return this.#make(data, undefined, status, headers);
    return (this.#made = buildResponse(data, status ?? this.#status, this.#merge(undefined, headers)));
  }

  /**
   * Stream a response: give a ReadableStream, or a function that writes chunks while the response
   * is already on its way. Content type text/plain unless `c.header` or `headers` name one.
   * A client that goes away makes `writer.aborted` true, and later writes are dropped.
   *
   * @example
   * app.get('/count', (c) => c.stream(async (out) => { for (let i = 0; i < 3; i++) await out.write(`${i}\n`); }));
   */
  stream(
    source: ReadableStream<Uint8Array> | ((writer: StreamWriter) => Promise<void> | void),
    status?: StatusCode,
    headers?: Record<string, string>,
  ): Response {
    const body = typeof source === 'function' ? writerStream(source, () => this.req.signal) : source;
    return this.body(body, status, this.#typed(TEXT_TYPE, headers));
  }

  /**
   * Render a view of the app's `views` (`new App({ views })`). `stream: true` answers with the
   * output as a stream. A view already loaded answers at once, without a promise; `await` works
   * on both. Without `views`, it throws an error that says how to configure them.
   *
   * @example
   * app.get('/', (c) => c.render('home', { title: 'Hi' }));
   */
  render(name: string, data?: unknown, options?: RenderOptions): Response | Promise<Response> {
    const views = this.#config.views;
    if (views === undefined) {
      throw new Error("c.render needs views: new App({ views: createViews(…) }), createViews from 'rove/views'");
    }
    const status = options?.status;
    const headers = options?.headers;
    if (options?.stream) return this.body(views.stream(name, data), status, this.#typed(HTML_TYPE, headers));
    const now = views.renderReady?.(name, data);
    if (now !== undefined) return this.html(now, status, headers);
    return views.render(name, data).then((html) => this.html(html, status, headers));
  }

  /** `headers` with a content type, unless the handler set one through `c.header()` or `headers`. */
  #typed(type: string, headers: Record<string, string> | undefined): Record<string, string> | undefined {
    if (this.#headers?.['content-type'] !== undefined) return headers;
    if (headers !== undefined) for (const k in headers) if (k.toLowerCase() === 'content-type') return headers;
    return { 'content-type': type, ...headers };
  }

  /** Redirect to a same-origin path or an absolute http(s) URL; anything else throws (see `isSafeLocation`). */
  redirect(location: string, status: RedirectStatus = 302): Response {
    if (![301, 302, 303, 307, 308].includes(status)) throw new TypeError(`Not a redirect status: ${status}`);
    // Only a same-origin path or an absolute http(s) URL.
    if (!isSafeLocation(location)) throw new TypeError(`Unsafe redirect: ${JSON.stringify(location)}`);
    this.header('location', location);
    return this.#make(null, undefined, status, undefined);
  }

  /** Throw to answer 404 through the app's not-found handler. */
  notFound(): never {
    throw new HttpError(404);
  }

  /** No adapter factory and no header to add: a helper may build its Response the cheapest way. */
  #bare(extra: Record<string, string> | undefined): boolean {
    return this.#config.respond === undefined && this.#headers === null && extra === undefined;
  }

  #merge(type: string | undefined, extra: Record<string, string> | undefined): HeaderRecord {
    const own = this.#headers;
    const out: HeaderRecord = type === undefined ? {} : { 'content-type': type };
    if (own !== null) for (const k in own) out[k] = own[k];
    if (extra !== undefined) {
      for (const k in extra) {
        checkHeader(k, extra[k]);
        const key = k.toLowerCase();
        const prev = out[key];
        // Appended values (an array) and cookies add up with the helper's; a value set plainly is replaced.
        if (prev !== undefined && (typeof prev !== 'string' || key === 'set-cookie')) out[key] = [...(typeof prev === 'string' ? [prev] : prev), extra[k]];
        else out[key] = extra[k];
      }
    }
    return out;
  }

  #make(payload: string | Uint8Array | null, type: string | undefined, status: StatusCode | undefined, extra: Record<string, string> | undefined): Response {
    const headers = this.#merge(type, extra);
    const code = status ?? this.#status;
    const respond = this.#config.respond;
    // Without an adapter's factory: headers set after, not in the init (see buildResponse).
    return (this.#made = respond !== undefined ? respond(payload, code, headers) : buildResponse(payload as BodyInit | null, code, headers));
  }
}

/**
 * Whether a redirect target stays on this origin or names an http(s) URL:
 * no control characters, no scheme-relative `//host` or `/\host`.
 */
export function isSafeLocation(location: string): boolean {
  // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what it refuses
  if (/[\u0000-\u001f\u007f]/.test(location)) return false;
  if (location.startsWith('/')) return !location.startsWith('//') && !location.startsWith('/\\');
  try {
    const u = new URL(location);
    return u.protocol === 'http:' || u.protocol === 'https:';
  } catch {
    return false;
  }
}
