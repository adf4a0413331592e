// Exact, shared counts on Cloudflare Workers: one Durable Object per key. A Durable Object runs
// one request at a time, in one place, so its count is exact however many isolates ask.
import type { Context } from '../../core/context.ts';
import type { RateLimitHit, RateLimitStore } from './store.ts';

/** The part of a Durable Object namespace binding the store uses. */
export interface DurableObjectNamespaceLike {
  idFromName(name: string): unknown;
  get(id: unknown): { fetch(input: string, init?: RequestInit): Promise<Response> };
}

/** The part of a Durable Object's state the counter uses (`ctx.storage`). */
export interface DurableObjectStateLike {
  storage: {
    get<T>(key: string): Promise<T | undefined>;
    put<T>(key: string, value: T): Promise<void>;
    deleteAll(): Promise<void>;
    setAlarm(time: number): Promise<void>;
  };
}

export interface DurableObjectStoreOptions {
  /** Prepended to every key before it names its Durable Object. Default `rl:`. */
  prefix?: string;
}

interface Window {
  count: number;
  ends: number;
}

/**
 * The Durable Object class behind `durableObjectStore()`: export it from your worker and bind it
 * in wrangler.toml. Each object counts one key's current window, kept in its storage, and
 * deletes it with an alarm when the window ends (nothing stays behind).
 *
 * @example
 * // worker.ts
 * export { RateLimitCounter } from 'rove/rate-limit';
 * // wrangler.toml
 * // [[durable_objects.bindings]]
 * // name = "RATE_LIMIT"
 * // class_name = "RateLimitCounter"
 * // [[migrations]]
 * // tag = "v1"
 * // new_sqlite_classes = ["RateLimitCounter"]
 */
export class RateLimitCounter {
  readonly #state: DurableObjectStateLike;
  #window: Window | undefined;

  constructor(state: DurableObjectStateLike, _env?: unknown) {
    this.#state = state;
  }

  async fetch(request: Request): Promise<Response> {
    const windowMs = Number(new URL(request.url).searchParams.get('window'));
    if (!Number.isInteger(windowMs) || windowMs < 1) return new Response('window: a whole number of milliseconds', { status: 400 });
    const storage = this.#state.storage;
    const now = Date.now();
    // Read once; afterwards the object's own copy is the truth (it handles one request at a time).
    let window = (this.#window ??= await storage.get<Window>('window'));
    if (window === undefined || window.ends <= now) {
      window = { count: 0, ends: now + windowMs };
      await storage.setAlarm(window.ends);
    }
    window.count++;
    this.#window = window;
    await storage.put('window', window);
    const hit: RateLimitHit = { count: window.count, resetMs: window.ends - now };
    return Response.json(hit);
  }

  async alarm(): Promise<void> {
    const window = this.#window ?? (await this.#state.storage.get<Window>('window'));
    if (window !== undefined && window.ends > Date.now()) {
      await this.#state.storage.setAlarm(window.ends);
      return;
    }
    this.#window = undefined;
    await this.#state.storage.deleteAll();
  }
}

/**
 * Counts in Durable Objects (Cloudflare Workers): exact across every isolate and location,
 * one object per key. Give the namespace binding, or a function that finds it on the context
 * (bindings arrive with each request). Each request costs one call to the key's object, which
 * may be in another location; the limiter's `storeTimeout` bounds the wait.
 *
 * @example
 * import { durableObjectStore, rateLimit } from 'rove/rate-limit';
 * export { RateLimitCounter } from 'rove/rate-limit';
 * app.use('/api', rateLimit({ window: 60, limit: 100, store: durableObjectStore((c) => c.env.RATE_LIMIT) }));
 */
export function durableObjectStore(
  namespace: DurableObjectNamespaceLike | ((c: Context<any, any>) => DurableObjectNamespaceLike),
  options: DurableObjectStoreOptions = {},
): RateLimitStore {
  const prefix = options.prefix ?? 'rl:';
  const find = typeof namespace === 'function' ? namespace : () => namespace;
  return {
    async hit(key, windowMs, c): Promise<RateLimitHit> {
      const ns = find(c);
      if (ns === undefined || ns === null || typeof ns.idFromName !== 'function')
        throw new Error('durableObjectStore: no Durable Object namespace; bind RateLimitCounter in wrangler.toml and pass it, e.g. (c) => c.env.RATE_LIMIT');
      const stub = ns.get(ns.idFromName(prefix + key));
      const res = await stub.fetch(`https://rate-limit.invalid/hit?window=${Math.round(windowMs)}`, { method: 'POST' });
      if (!res.ok) throw new Error(`durableObjectStore: the counter answered ${res.status}`);
      return (await res.json()) as RateLimitHit;
    },
  };
}
