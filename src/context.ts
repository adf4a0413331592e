import { serializeCookie, type CookieOptions } from './cookies.ts';
import { HttpError } from './errors.ts';
import { RoveRequest, type RequestLike } from './request.ts';
import { LightResponse, toHeadersInit, type HeaderRecord } from './response.ts';
import type { Params } from './router.ts';
import { NO_WORKERS, type WorkerRunner } from './workers/pool.ts';

/** Type parameters of an app: Workers bindings and per-request variables. */
export interface Env {
  Bindings?: object;
  Variables?: object;
}

export interface ExecutionContext {
  waitUntil(promise: Promise<unknown>): void;
  passThroughOnException?(): void;
}

/** What `c.render` needs from a views engine (rove/views provides it). */
export interface ViewRenderer {
  render(name: string, data?: unknown): Promise<string>;
  stream(name: string, data?: unknown): ReadableStream<Uint8Array>;
  /** Optional: the output at once when the view is already loaded, else undefined (then `render` loads it). */
  renderReady?(name: string, data?: unknown): string | undefined;
  /** Optional: receives view events while the app has listeners for them. */
  observe?(sink: ((event: { kind: 'view:compiled' | 'view:rendered' | 'view:error'; metadata: any }) => void) | undefined): void;
}

/** App-wide settings a context reads. */
export interface ContextConfig {
  bodyLimit: number;
  views: ViewRenderer | undefined;
  dev: boolean;
  workers?: WorkerRunner;
}

type Bindings<E extends Env> = E['Bindings'] extends object ? E['Bindings'] : Record<string, unknown>;
type Variables<E extends Env> = E['Variables'] extends object ? E['Variables'] : Record<string, unknown>;

export type StatusCode = number;
export type RedirectStatus = 301 | 302 | 303 | 307 | 308;

export interface StreamWriter {
  /** Resolves once the chunk is handed on; waits while the client is slow (backpressure). */
  write(chunk: string | Uint8Array): Promise<void>;
  /** True once the client went away; writes after that are dropped. */
  readonly aborted: boolean;
  readonly signal: AbortSignal;
}

const JSON_TYPE = 'application/json';
// The Fetch spec's default for a string body: a bare `new Response(text)` on Deno, Bun and workerd carries the same.
const TEXT_TYPE = 'text/plain;charset=UTF-8';
const HTML_TYPE = 'text/html; charset=utf-8';
const encoder = new TextEncoder();

/** Keeps background work alive where the runtime gives no execution context (Node, Deno, Bun). */
const backgroundContext: ExecutionContext = {
  waitUntil(promise) {
    promise.catch(() => {});
  },
  passThroughOnException() {},
};

/** One object per request: the request side, per-request state, and the response helpers. */
export class Context<E extends Env = Env, I = {}> {
  readonly env: Bindings<E>;
  /** The response so far, once a handler has produced one. Helpers may leave a LightResponse here on Node. */
  _res: Response | LightResponse | undefined = undefined;
  /** The error a handler threw, for middleware that runs after `next()`. */
  error: unknown = undefined;
  _valid: Record<string, unknown> | undefined = undefined;
  _bodyLimit: number;
  /** The last response a helper built; it already carries the headers set through `c.header()`. */
  _made: Response | undefined = undefined;

  #raw: RequestLike;
  #req: RoveRequest | undefined;
  #ctx: ExecutionContext | undefined;
  #vars: Record<string, unknown> | undefined;
  #headers: HeaderRecord | null = null;
  #status = 200;

  constructor(
    readonly config: ContextConfig,
    raw: RequestLike,
    /** The pathname, as sent (not percent-decoded). */
    readonly path: string,
    private readonly queryString: string,
    readonly params: Params,
    env: unknown,
    ctx: ExecutionContext | undefined,
    /** Whether helpers may return a LightResponse (the Node adapter asks for it). */
    readonly light: boolean,
  ) {
    this.#raw = raw;
    this.env = (env ?? {}) as Bindings<E>;
    this.#ctx = ctx;
    this._bodyLimit = config.bodyLimit;
  }

  get req(): RoveRequest {
    return (this.#req ??= new RoveRequest(this.#raw, this.path, this.queryString, this.params, () => this._bodyLimit));
  }

  /** The app's worker pool: `await c.worker.run(payload)`. Without a pool, run() answers 503. */
  get worker(): WorkerRunner {
    return this.config.workers ?? NO_WORKERS;
  }

  get executionCtx(): ExecutionContext {
    return this.#ctx ?? backgroundContext;
  }

  /** The current response as a real `Response`. Middleware reads and replaces it after `next()`. */
  get res(): Response {
    const r = this._res;
    if (r === undefined) throw new Error('No response yet: read c.res after await next()');
    if (r instanceof LightResponse) return (this._res = r.toResponse());
    return r;
  }
  set res(value: Response) {
    this._res = value;
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

  /** The value a `validate(target, schema)` middleware produced. */
  valid<K extends keyof I & string>(target: K): I[K] {
    const v = this._valid;
    if (v === undefined || !(target in v)) throw new Error(`No validated "${target}": add validate('${target}', schema) before this handler`);
    return v[target] as I[K];
  }

  /** Set (or with `undefined`, remove) a response header; `append` keeps earlier values. */
  header(name: string, value: string | undefined, options?: { append?: boolean }): void {
    const key = name.toLowerCase();
    const h = (this.#headers ??= {});
    if (value === undefined) {
      delete h[key];
    } else if (options?.append && h[key] !== undefined) {
      const prev = h[key];
      h[key] = typeof prev === 'string' ? [prev, value] : [...prev, value];
    } else {
      h[key] = value;
    }
  }

  /** Headers set through `c.header()` so far, merged into whatever response the handler returns. */
  get _pendingHeaders(): HeaderRecord | null {
    return this.#headers;
  }

  status(code: StatusCode): void {
    this.#status = code;
  }

  setCookie(name: string, value: string, options?: CookieOptions): void {
    this.header('set-cookie', serializeCookie(name, value, options), { append: true });
  }

  deleteCookie(name: string, options?: Pick<CookieOptions, 'path' | 'domain'>): void {
    this.setCookie(name, '', { ...options, maxAge: 0, expires: new Date(0) });
  }

  json(data: unknown, status?: StatusCode, headers?: Record<string, string>): Response {
    // The native Response.json sets the same content type and skips a headers object (2× faster on Deno and Bun).
    if (!this.light && this.#headers === null && headers === undefined && typeof data === 'object' && data !== null) {
      const code = status ?? this.#status;
      return (this._made = code === 200 ? Response.json(data) : Response.json(data, { status: code }));
    }
    return this.#make(JSON.stringify(data) ?? 'null', JSON_TYPE, status, headers);
  }

  text(text: string, status?: StatusCode, headers?: Record<string, string>): Response {
    // A bare string body gets the spec's text/plain content type: no headers object to build (4× faster).
    if (!this.light && this.#headers === null && headers === undefined) {
      const code = status ?? this.#status;
      return (this._made = code === 200 ? new Response(text) : new Response(text, { status: code }));
    }
    return this.#make(text, TEXT_TYPE, status, headers);
  }

  html(html: string, status?: StatusCode, headers?: Record<string, string>): Response {
    return this.#make(html, HTML_TYPE, status, headers);
  }

  /** A response with any body; the content type is yours to set. */
  body(data: BodyInit | null, status?: StatusCode, headers?: Record<string, string>): Response {
    if (data === null || typeof data === 'string' || data instanceof Uint8Array) return this.#make(data, undefined, status, headers);
    return (this._made = new Response(data, { status: status ?? this.#status, headers: toHeadersInit(this.#merge(undefined, headers)) }));
  }

  /**
   * Stream a response. Give a ReadableStream, or a function that writes chunks;
   * the response starts at once and the function keeps writing until it returns.
   */
  stream(
    source: ReadableStream<Uint8Array> | ((writer: StreamWriter) => Promise<void> | void),
    status?: StatusCode,
    headers?: Record<string, string>,
  ): Response {
    const init = { status: status ?? this.#status, headers: toHeadersInit(this.#merge(TEXT_TYPE, headers)) };
    if (typeof source !== 'function') return (this._made = new Response(source, init));
    const raw = this.#raw;
    const { readable, writable } = new TransformStream<Uint8Array, Uint8Array>(undefined, { highWaterMark: 1 });
    const w = writable.getWriter();
    // A client that goes away cancels the readable side, which fails the next write:
    // no listener on request.signal is needed (and Deno warns about those).
    let aborted = false;
    const writer: StreamWriter = {
      async write(chunk) {
        if (aborted) return;
        try {
          await w.ready;
          await w.write(typeof chunk === 'string' ? encoder.encode(chunk) : chunk);
        } catch {
          aborted = true;
        }
      },
      get aborted() {
        return aborted;
      },
      get signal() {
        return raw.signal;
      },
    };
    Promise.resolve()
      .then(() => source(writer))
      .then(
        () => (aborted ? undefined : w.close()),
        (err) => w.abort(err),
      )
      .catch(() => {});
    return (this._made = new Response(readable, init));
  }

  /** Redirect to a same-origin path or an absolute http(s) URL. */
  redirect(location: string, status: RedirectStatus = 302): Response {
    if (![301, 302, 303, 307, 308].includes(status)) throw new TypeError(`Redirect status must be 301, 302, 303, 307 or 308, not ${status}`);
    if (!isSafeLocation(location)) throw new TypeError(`Refusing to redirect to ${JSON.stringify(location)}: use a path starting with "/" or an absolute http(s) URL`);
    this.header('location', location);
    return this.#make(null, undefined, status, undefined);
  }

  /**
   * Render a view; `stream: true` answers with the output as a stream.
   * A view already loaded answers at once, without a promise; `await` works on both.
   */
  render(name: string, data?: unknown, options?: { status?: StatusCode; stream?: boolean; headers?: Record<string, string> }): Response | Promise<Response> {
    const views = this.config.views;
    if (!views) throw new Error('c.render needs views: new App({ views: createViews(...) })');
    if (options?.stream) {
      return (this._made = new Response(views.stream(name, data), {
        status: options.status ?? this.#status,
        headers: toHeadersInit(this.#merge(HTML_TYPE, options.headers)),
      }));
    }
    const now = views.renderReady?.(name, data);
    if (now !== undefined) return this.html(now, options?.status, options?.headers);
    return views.render(name, data).then((html) => this.html(html, options?.status, options?.headers));
  }

  /** Throw to answer 404 through the app's not-found handler. */
  notFound(): never {
    throw new HttpError(404);
  }

  #merge(type: string | undefined, extra: Record<string, string> | undefined): HeaderRecord {
    const own = this.#headers;
    if (own === null && extra === undefined) return type === undefined ? {} : { 'content-type': type };
    const out: HeaderRecord = type === undefined ? {} : { 'content-type': type };
    if (own !== null) for (const k in own) out[k] = own[k];
    if (extra !== undefined) for (const k in extra) out[k.toLowerCase()] = extra[k];
    return out;
  }

  #make(payload: string | Uint8Array | null, type: string | undefined, status: StatusCode | undefined, extra: Record<string, string> | undefined): Response {
    const headers = this.#merge(type, extra);
    const code = status ?? this.#status;
    const res = this.light
      ? (new LightResponse(payload, code, headers) as unknown as Response)
      : new Response(payload as BodyInit | null, { status: code, headers: toHeadersInit(headers) });
    this._made = res;
    return res;
  }
}

function isSafeLocation(location: string): boolean {
  // eslint-disable-next-line no-control-regex
  if (/[\u0000-\u001f\u007f]/.test(location)) return false;
  if (location.startsWith('/')) return !location.startsWith('//') && !location.startsWith('/\\');
  try {
    const u = new URL(location);
    return u.protocol === 'http:' || u.protocol === 'https:';
  } catch {
    return false;
  }
}
