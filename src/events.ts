import type { Context, ExecutionContext } from './context.ts';
import { BodyError } from './errors.ts';
import type { RequestLike } from './request.ts';

export type { BodyRejectedMetadata, EventKind, EventMap, Listener, RequestMetadata, RoveEvent };

import type { BodyRejectedMetadata, EventKind, EventMap, Listener, RequestMetadata, RoveEvent } from './event-map.ts';

const REQUEST_KINDS: ReadonlySet<string> = new Set(['request:complete', 'request:error', 'body:rejected']);
const NONE: readonly Listener<any>[] = Object.freeze([]);

interface Entry {
  kind: EventKind | null;
  fn: Listener<any>;
}

/** The event bus of one app. Emitting to nobody costs one array-length check; the request path checks only `observing`. */
export class EventBus {
  /**
   * True while someone listens for a request event (or for everything).
   * The request path reads only this field: when it is false no clock is
   * read and no event object is made.
   */
  observing = false;
  /** Where listener failures go; the default logs the first failure per event kind. */
  onListenerError: (error: unknown, event: RoveEvent) => void = logOnce;
  #entries: Entry[] = [];
  #byKind = new Map<string, readonly Listener<any>[]>();
  // The request kinds, cached as fields: they are looked up on every observed request.
  #complete: readonly Listener<any>[] = NONE;
  #error: readonly Listener<any>[] = NONE;
  #body: readonly Listener<any>[] = NONE;

  /** Listen to every event, or to one kind. Returns the function that stops listening. */
  on(listener: Listener): () => void;
  on<K extends EventKind>(kind: K, listener: Listener<K>): () => void;
  on(a: EventKind | Listener, b?: Listener<any>): () => void {
    if (typeof a !== 'function' && (typeof a !== 'string' || typeof b !== 'function')) {
      throw new TypeError('on() takes a listener, or an event kind and a listener');
    }
    const entry: Entry = typeof a === 'function' ? { kind: null, fn: a } : { kind: a, fn: b! };
    // Copy on write: an emit in progress keeps iterating its own snapshot.
    this.#entries = [...this.#entries, entry];
    this.#changed();
    let on = true;
    return () => {
      if (!on) return;
      on = false;
      this.#entries = this.#entries.filter((e) => e !== entry);
      this.#changed();
    };
  }

  /** Whether anyone listens for `kind`: check it before building costly metadata. */
  has(kind: EventKind): boolean {
    return this.listeners(kind).length > 0;
  }

  listeners(kind: EventKind): readonly Listener<any>[] {
    let list = this.#byKind.get(kind);
    if (list === undefined) {
      list = this.#entries.filter((e) => e.kind === null || e.kind === kind).map((e) => e.fn);
      if (list.length === 0) list = NONE;
      this.#byKind.set(kind, list);
    }
    return list;
  }

  /**
   * Call every listener of `kind`. Listeners never break the caller: a throw
   * or a rejection goes to `onListenerError`. A returned promise is handed to
   * `ctx.waitUntil` when given, so Workers keep it alive after the response.
   */
  emit<K extends EventKind>(kind: K, metadata: EventMap[K], ctx?: ExecutionContext): void {
    const list = this.listeners(kind);
    if (list.length === 0) return;
    this.#dispatch(list, { kind, timestamp: Date.now(), metadata } as RoveEvent, ctx);
  }

  /** Report a finished request: `request:complete`, plus `request:error` and `body:rejected` when they apply. */
  request(info: RequestInfo, timestamp: number, ctx: ExecutionContext | undefined): void {
    if (this.#complete.length > 0) this.#dispatch(this.#complete, { kind: 'request:complete', timestamp, metadata: info }, ctx);
    if (info.status < 400 && info.error === undefined) return;
    if (this.#error.length > 0) this.#dispatch(this.#error, { kind: 'request:error', timestamp, metadata: info }, ctx);
    if (this.#body.length > 0) {
      const reason = bodyRejection(info.error);
      if (reason !== undefined) {
        info.reason = reason;
        this.#dispatch(this.#body, { kind: 'body:rejected', timestamp, metadata: info as BodyRejectedMetadata }, ctx);
      }
    }
  }

  #dispatch(list: readonly Listener<any>[], event: RoveEvent, ctx: ExecutionContext | undefined): void {
    for (let i = 0; i < list.length; i++) {
      try {
        const out = list[i](event);
        if (out != null && typeof (out as Promise<unknown>).then === 'function') {
          const kept = Promise.resolve(out).then(undefined, (error) => this.#fail(error, event));
          if (ctx !== undefined) ctx.waitUntil(kept);
        }
      } catch (error) {
        this.#fail(error, event);
      }
    }
  }

  #fail(error: unknown, event: RoveEvent): void {
    try {
      this.onListenerError(error, event);
    } catch {
      // a failing error reporter must not break the request either
    }
  }

  /** Call `fn` whenever listeners come or go (features that emit from elsewhere switch on and off with it). */
  watch(fn: () => void): void {
    this.#watchers.push(fn);
    fn();
  }
  #watchers: (() => void)[] = [];

  #changed(): void {
    this.#byKind.clear();
    for (const fn of this.#watchers) fn();
    this.#complete = this.listeners('request:complete');
    this.#error = this.listeners('request:error');
    this.#body = this.listeners('body:rejected');
    this.observing = this.#entries.some((e) => e.kind === null || REQUEST_KINDS.has(e.kind));
  }
}

// Once per kind: a listener that fails on every request must not flood the log (or slow the server with it).
const logged = new Set<string>();
function logOnce(error: unknown, event: RoveEvent): void {
  if (logged.has(event.kind)) return;
  logged.add(event.kind);
  console.error(`rove: a listener for ${event.kind} failed (further failures for this kind are not logged):`, error);
}

/** Which body refusal an error is, if any: the body readers and validate() throw BodyErrors. */
export function bodyRejection(error: unknown): BodyRejectedMetadata['reason'] | undefined {
  return error instanceof BodyError ? error.reason : undefined;
}

/** The metadata of one request event. Plain fields are set at once; the rest are read from the request on demand. */
export class RequestInfo implements RequestMetadata {
  reason: BodyRejectedMetadata['reason'] | undefined = undefined;

  constructor(
    readonly method: string,
    readonly path: string,
    readonly route: string | null,
    readonly status: number,
    readonly durationMs: number,
    readonly error: unknown,
    private readonly request: RequestLike,
    private readonly result: Response | undefined,
    private readonly c: Context<any, any>,
  ) {}

  header(name: string): string | undefined {
    try {
      return this.request.headers.get(name) ?? undefined;
    } catch {
      return undefined;
    }
  }

  get requestSize(): number | undefined {
    const length = this.header('content-length');
    return length === undefined ? undefined : Number(length);
  }

  get responseSize(): number | undefined {
    const r = this.result;
    if (r === undefined) return undefined;
    const length = r.headers.get('content-length');
    if (length !== null) return Number(length);
    return r.body === null ? 0 : undefined;
  }

  get userAgent(): string | undefined {
    return this.header('user-agent');
  }

  get clientAddress(): string | undefined {
    try {
      return this.c.req.ip;
    } catch {
      return undefined;
    }
  }

  /** Getters live on the prototype, so list them for JSON logs. */
  toJSON(): Record<string, unknown> {
    const e = this.error;
    return {
      method: this.method,
      path: this.path,
      route: this.route,
      status: this.status,
      durationMs: this.durationMs,
      requestSize: this.requestSize,
      responseSize: this.responseSize,
      userAgent: this.userAgent,
      clientAddress: this.clientAddress,
      ...(e === undefined ? {} : { error: e instanceof Error ? { name: e.name, message: e.message } : String(e) }),
      ...(this.reason === undefined ? {} : { reason: this.reason }),
    };
  }
}

/**
 * Run one request while someone listens: time it and report how it ended.
 * The app calls this only when `bus.observing` is true.
 */
export function observeRequest(
  bus: EventBus,
  request: RequestLike,
  c: Context<any, any>,
  route: string | null,
  run: () => Response | Promise<Response>,
): Response | Promise<Response> {
  const start = performance.now();
  let out: Response | Promise<Response>;
  try {
    out = run();
  } catch (error) {
    report(bus, request, c, route, start, undefined, error);
    throw error;
  }
  if (out instanceof Promise) {
    return out.then(
      (result) => {
        report(bus, request, c, route, start, result, undefined);
        return result;
      },
      (error) => {
        report(bus, request, c, route, start, undefined, error);
        throw error;
      },
    );
  }
  report(bus, request, c, route, start, out, undefined);
  return out;
}

function report(
  bus: EventBus,
  request: RequestLike,
  c: Context<any, any>,
  route: string | null,
  start: number,
  result: Response | undefined,
  thrown: unknown,
): void {
  const end = performance.now();
  const info = new RequestInfo(
    request.method,
    c.path,
    route,
    result === undefined ? 500 : result.status,
    end - start,
    thrown !== undefined ? thrown : c.error,
    request,
    result,
    c,
  );
  // The end time as an epoch timestamp without a second clock read (workerd: origin 0, now() is epoch time).
  bus.request(info, TIME_ORIGIN + end, c.executionCtx);
}

const TIME_ORIGIN = performance.timeOrigin;
