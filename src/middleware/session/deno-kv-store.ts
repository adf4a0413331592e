// Sessions in Deno KV: shared by every isolate and region of a Deno Deploy app (or every process
// that opens the same database file), strongly consistent in the region that writes.
import type { Context } from '../../core/context.ts';
import type { SessionStore } from './store.ts';

/** The part of a Deno KV handle (what Deno's `openKv()` gives) the store uses. */
export interface DenoKvSessionLike {
  get<T>(key: readonly unknown[]): Promise<{ value: T | null; versionstamp: string | null }>;
  set(key: readonly unknown[], value: unknown, options?: { expireIn?: number }): Promise<unknown>;
  delete(key: readonly unknown[]): Promise<void>;
}

export interface DenoKvSessionStoreOptions {
  /** The first part of every key, so one database can hold other data too. Default `rove-session`. */
  prefix?: string;
}

/** What is kept per session: the value and when it expires (epoch ms). */
interface Saved {
  v: string;
  e: number;
}

/** Deno KV refuses values over 64 KiB once serialized; a session that large is an error. */
const MAX_VALUE_SIZE = 60 * 1024;

/**
 * Sessions in Deno KV (Deno Deploy, or `Deno.openKv()` wherever Deno runs): a login in one isolate
 * is seen by all, and `destroy()` ends the session everywhere. Each session is written with
 * `expireIn` at its max age, so KV deletes it; KV deletes lazily, so the store also keeps the
 * expiry and never answers an expired session. Give the KV handle, or a function that finds it.
 *
 * @example
 * import { denoKvStore, session } from 'rove/session';
 * const kv = await Deno.openKv();
 * app.use(session({ keys: [Deno.env.get('SESSION_SECRET')!], store: denoKvStore(kv) }));
 */
export function denoKvStore(kv: DenoKvSessionLike | ((c: Context<any, any>) => DenoKvSessionLike), options: DenoKvSessionStoreOptions = {}): SessionStore {
  const prefix = options.prefix ?? 'rove-session';
  const find = typeof kv === 'function' ? kv : () => kv;
  const db = (c: Context<any, any>): DenoKvSessionLike => {
    const handle = find(c);
    if (handle === undefined || handle === null || typeof handle.get !== 'function')
      throw new Error('denoKvStore: no Deno KV handle; open one with openKv() from Deno (run it with --unstable-kv) and pass it');
    return handle;
  };
  return {
    async get(id, c) {
      const entry = await db(c).get<Saved>([prefix, id]);
      const saved = entry.value;
      if (saved === null || typeof saved !== 'object' || typeof saved.v !== 'string') return null;
      return saved.e > Date.now() ? saved.v : null;
    },
    async set(id, value, maxAge, c) {
      if (value.length > MAX_VALUE_SIZE) throw new RangeError(`Session is ${value.length} bytes, over what one Deno KV value holds (${MAX_VALUE_SIZE})`);
      const ms = Math.max(1, Math.ceil(maxAge * 1000));
      await db(c).set([prefix, id], { v: value, e: Date.now() + ms } satisfies Saved, { expireIn: ms });
    },
    async delete(id, c) {
      await db(c).delete([prefix, id]);
    },
  };
}
