import type { Context } from '../../core/context.ts';
import type { SessionStore } from './store.ts';

/** The part of a Workers KV namespace binding the store uses. */
export interface KVNamespaceLike {
  get(key: string, type: 'text'): Promise<string | null>;
  put(key: string, value: string, options?: { expirationTtl?: number }): Promise<unknown>;
  delete(key: string): Promise<unknown>;
}

export interface KvStoreOptions {
  /** Prepended to every key, so one namespace can hold other data too. Default `session:`. */
  prefix?: string;
}

/** KV refuses an expirationTtl under 60 seconds. */
const MIN_KV_TTL = 60;

/**
 * Sessions in Workers KV. Give the namespace, or a function that finds it on the context,
 * since on Workers bindings arrive with each request (`c.env`). KV is eventually consistent:
 * a write can take up to a minute to reach other locations (see docs/session.md).
 *
 * @example
 * app.use(session({ keys: [env.SESSION_SECRET], store: kvStore((c) => c.env.SESSIONS) }));
 */
export function kvStore(namespace: KVNamespaceLike | ((c: Context<any, any>) => KVNamespaceLike), options: KvStoreOptions = {}): SessionStore {
  const prefix = options.prefix ?? 'session:';
  const find = typeof namespace === 'function' ? namespace : () => namespace;
  const kv = (c: Context<any, any>): KVNamespaceLike => {
    const ns = find(c);
    if (ns === undefined || ns === null || typeof ns.get !== 'function')
      throw new Error('kvStore: no KV namespace; bind one in wrangler.toml ([[kv_namespaces]]) and pass it, e.g. kvStore((c) => c.env.SESSIONS)');
    return ns;
  };
  return {
    get: (id, c) => kv(c).get(prefix + id, 'text'),
    async set(id, value, maxAge, c) {
      await kv(c).put(prefix + id, value, { expirationTtl: Math.max(MIN_KV_TTL, Math.ceil(maxAge)) });
    },
    async delete(id, c) {
      await kv(c).delete(prefix + id);
    },
  };
}
