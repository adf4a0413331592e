import type { Context, ExecutionContext } from './context.ts';
import { BodyError } from './errors.ts';
import type { RequestLike } from './request.ts';

export type { BodyRejectedMetadata, EventKind, EventMap, Listener, RequestMetadata, RoveEvent };

import type { BodyRejectedMetadata, EventKind, EventMap, Listener, RequestMetadata, RoveEvent } from './event-map.ts';

/** The kinds reported for every request while someone listens to them. */
export const REQUEST_EVENT_KINDS: readonly EventKind[] = ['request:complete', 'request:error', 'body:rejected'];

const NONE: readonly Listener<any>[] = /* @__PURE__ */ Object.freeze([]);

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
  #watchers: (() => void)[] = [];

  /** Listen to every event, or to one kind. Returns the function that stops listening. */
  on(listener: Listener): () => void;
  on<K extends EventKind>(kind: K, listener: Listener<K>): () => void;
  on(a: EventKind | Listener, b?: Listener<any>): () => void {
    const entry: Entry = typeof a === 'function' ? { kind: null, fn: a } : { kind: a, fn: b! };
    if (typeof entry.fn !== 'function' || (entry.kind !== null && typeof entry.kind !== 'string'))
      throw new TypeError('on() takes a listener, or a kind and a listener');
    // Copy on write: an emit in progress keeps iterating its own snapshot.
    this.#set([...this.#entries, entry]);
    return () => this.#set(this.#entries.filter((e) => e !== entry));
  }

  /** Whether anyone listens for `kind`: check it before building costly metadata. */
  has(kind: EventKind): boolean {
    return this.listeners(kind).length > 0;
  }

  listeners(kind: EventKind): readonly Listener<any>[] {
    let list = this.#byKind.get(kind);
    if (list === undefined) {
      const entries = this.#entries;
      // Nobody listens (every server start emits to an app that has no listener): no array work.
      list = entries.length === 0 ? NONE : entries.filter((e) => e.kind === null || e.kind === kind).map((e) => e.fn);
      this.#byKind.set(kind, list.length === 0 ? NONE : list);
    }
    return list;
  }

  /**
   * Call every listener of `kind`. Listeners never break the caller: a throw
   * or a rejection goes to `onListenerError`. A returned promise is handed to
   * `ctx.waitUntil` when given, so Workers keep it alive after the response. `metadata` may be a
   * function that builds it: it runs only when someone listens.
   */
  emit<K extends EventKind>(kind: K, metadata: EventMap[K] | (() => EventMap[K]), ctx?: ExecutionContext, timestamp?: number): void {
    // An app nobody listens to (most) compiles only this line: a server start emits to it.
    if (this.#entries.length) this.#deliver(kind, metadata, ctx, timestamp);
  }

  #deliver<K extends EventKind>(kind: K, metadata: EventMap[K] | (() => EventMap[K]), ctx?: ExecutionContext, timestamp?: number): void {
    const list = this.listeners(kind);
    if (list.length === 0) return;
    const built = typeof metadata === 'function' ? (metadata as () => EventMap[K])() : metadata;
    const event = { kind, timestamp: timestamp ?? Date.now(), metadata: built } as RoveEvent;
    for (const fn of list) {
      try {
        const out = fn(event);
        if (out != null && typeof (out as Promise<unknown>).then === 'function') {
          const kept = Promise.resolve(out).then(undefined, (error) => this.#fail(error, event));
          ctx?.waitUntil(kept);
        }
      } catch (error) {
        this.#fail(error, event);
      }
    }
  }

  /** Report a finished request: `request:complete`, then `request:error` and `body:rejected` when they apply. */
  request(info: RequestMetadata & { reason?: BodyRejectedMetadata['reason'] }, timestamp: number, ctx: ExecutionContext | undefined): void {
    this.emit('request:complete', info, ctx, timestamp);
    if (info.status < 400 && info.error === undefined) return;
    this.emit('request:error', info, ctx, timestamp);
    // The body readers and validate() throw BodyErrors.
    if (info.error instanceof BodyError && this.has('body:rejected')) {
      info.reason = info.error.reason;
      this.emit('body:rejected', info as BodyRejectedMetadata, ctx, timestamp);
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

  #set(entries: Entry[]): void {
    this.#entries = entries;
    this.#byKind.clear();
    for (const fn of this.#watchers) fn();
    this.observing = entries.some((e) => e.kind === null || REQUEST_EVENT_KINDS.includes(e.kind));
  }
}

// Once per kind: a listener that fails on every request must not flood the log (or slow the server with it).
const logged = new Set<string>();
function logOnce(error: unknown, event: RoveEvent): void {
  if (logged.has(event.kind)) return;
  logged.add(event.kind);
  console.error(`rove: a listener for ${event.kind} failed (further failures are not logged):`, error);
}

// Timing and reporting one request while someone listens for request events: the app calls
// this only when its bus is `observing`, so a request nobody listens to pays for none of it.
const TIME_ORIGIN = performance.timeOrigin;

/**
 * What request events carry. Plain fields are set at once; the rest are read from the request only
 * when a listener reads them, through the prototype's getters: an object literal with getters of
 * its own costs a request far more (on Node, about 40% of a small route's throughput).
 */
class RequestReport {
  // Set in the constructor: `declare` keeps field declarations out of the bundle.
  declare readonly method: string;
  declare readonly path: string;
  declare readonly status: number;
  declare reason: BodyRejectedMetadata['reason'] | undefined;
  #c: Context<any, any>;
  #result: Response | undefined;

  constructor(
    method: string,
    c: Context<any, any>,
    readonly route: string | null,
    result: Response | undefined,
    readonly durationMs: number,
    readonly error: unknown,
  ) {
    this.method = method;
    this.path = c.path;
    this.status = result === undefined ? 500 : result.status;
    this.#c = c;
    this.#result = result;
  }

  /** Through c.req, made only now: the adapter's own header lookup, as a handler gets it. */
  header(name: string): string | undefined {
    return this.#c.req.header(name);
  }

  get requestSize(): number | undefined {
    const length = this.header('content-length');
    return length === undefined ? undefined : Number(length);
  }

  get responseSize(): number | undefined {
    const result = this.#result;
    if (result === undefined) return undefined;
    const length = result.headers.get('content-length');
    return length !== null ? Number(length) : result.body === null ? 0 : undefined;
  }

  get userAgent(): string | undefined {
    return this.header('user-agent');
  }

  get clientAddress(): string | undefined {
    try {
      return this.#c.req.ip;
    } catch {
      return undefined;
    }
  }

  /** Every field, the lazy ones read; an error as `{ name, message }`. */
  toJSON(): object {
    const out: Record<string, unknown> = { ...(this as object) };
    for (const key of LAZY) out[key] = this[key];
    const error = this.error;
    out.error = error === undefined ? undefined : error instanceof Error ? { name: error.name, message: error.message } : String(error);
    return out;
  }
}

/** The fields read only when asked for. */
const LAZY = ['requestSize', 'responseSize', 'userAgent', 'clientAddress'] as const;

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
  const report = (result: Response | undefined, thrown: unknown): void => {
    const end = performance.now();
    const info = new RequestReport(request.method, c, route, result, end - start, thrown !== undefined ? thrown : c.error);
    // The end time as an epoch timestamp without a second clock read (workerd: origin 0, now() is epoch time).
    bus.request(info, TIME_ORIGIN + end, c.executionCtx);
  };
  let out: Response | Promise<Response>;
  try {
    out = run();
  } catch (error) {
    report(undefined, error);
    throw error;
  }
  if (!(out instanceof Promise)) {
    report(out, undefined);
    return out;
  }
  return out.then(
    (result) => {
      report(result, undefined);
      return result;
    },
    (error) => {
      report(undefined, error);
      throw error;
    },
  );
}
