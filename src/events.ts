import type { Context, ExecutionContext } from './context.ts';
import type { RequestLike } from './request.ts';

export type { BodyRejectedMetadata, EventKind, EventMap, Listener, RequestMetadata, RoveEvent };

import type { BodyRejectedMetadata, EventKind, EventMap, Listener, RequestMetadata, RoveEvent } from './event-map.ts';

/** The kinds rove/request-events reports. */
export const REQUEST_EVENT_KINDS: readonly EventKind[] = ['request:complete', 'request:error', 'body:rejected'];

/** Runs one request while someone listens, timing it and reporting how it ended. */
export type RequestObserver = (
  bus: EventBus,
  request: RequestLike,
  c: Context<any, any>,
  route: string | null,
  run: () => Response | Promise<Response>,
) => Response | Promise<Response>;

/**
 * Request events' code lives in rove/request-events, which fills this in when it loads
 * (rove/logger and rove/otel load it): an app that never listens to requests does not carry it.
 */
export const requestHooks: { observe?: RequestObserver } = {};
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
    // Never a listener that silently hears nothing.
    if (REQUEST_EVENT_KINDS.includes(entry.kind!) && !requestHooks.observe) throw new Error(`${entry.kind} needs import 'rove/request-events'`);
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
      list = this.#entries.filter((e) => e.kind === null || e.kind === kind).map((e) => e.fn);
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

  /** Run one request while someone listens (`observing`): rove/request-events times and reports it. */
  observe(request: RequestLike, c: Context<any, any>, route: string | null, run: () => Response | Promise<Response>): Response | Promise<Response> {
    return requestHooks.observe!(this, request, c, route, run);
  }

  /** Report a finished request (`request:complete`, `request:error`, `body:rejected`); rove/request-events puts it here. */
  declare request: (info: RequestMetadata & { reason?: BodyRejectedMetadata['reason'] }, timestamp: number, ctx: ExecutionContext | undefined) => void;

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
    this.observing = requestHooks.observe !== undefined && entries.some((e) => e.kind === null || REQUEST_EVENT_KINDS.includes(e.kind));
  }
}

// Once per kind: a listener that fails on every request must not flood the log (or slow the server with it).
const logged = new Set<string>();
function logOnce(error: unknown, event: RoveEvent): void {
  if (logged.has(event.kind)) return;
  logged.add(event.kind);
  console.error(`rove: a listener for ${event.kind} failed (further failures are not logged):`, error);
}
