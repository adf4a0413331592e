// cache(): keep GET responses and answer repeats from them, honouring Cache-Control and Vary,
// and forget a URL when a write to it succeeds (RFC 9111 §4.4). The copies live in the runtime's
// Cache API (Workers, Deno), in this process's memory (Node, Bun), or in a store passed in (Redis).
import type { Handler } from '../../core/compose.ts';
import type { Context } from '../../core/context.ts';
import { named } from '../../core/named.ts';
import { memoryCache } from './memory-store.ts';
import type { CacheStore } from './store.ts';
import { WriteOrder } from './write-order.ts';

export interface CacheOptions {
  /** The cache's name, for `caches.open()`. Default `rove`. */
  cacheName?: string;
  /**
   * Seconds to keep a response that says nothing of its freshness (no `s-maxage` or `max-age`).
   * Default 0: such responses are not stored.
   */
  maxAge?: number;
  /** Largest body stored, in bytes. Default 1 MiB; a longer response is sent as usual but not stored. */
  maxSize?: number;
  /**
   * Where the copies live: a store (`memoryCache()`, `redisCache(client)`, an opened Cache API
   * cache), or a function of the context that gives one, for a store that depends on the runtime
   * or the request. Default: the Cache API where the runtime has one (Workers, Deno), else
   * `memoryCache()`.
   */
  store?: CacheStore | ((c: Context<any, any>) => CacheStore | Promise<CacheStore>);
}

/** Headers the middleware keeps on a stored copy, to check it on the way out. */
const STORED_AT = 'x-rove-cache-stored';
const VARY_VALUES = 'x-rove-cache-vary';

interface CacheStorageLike {
  open(name: string): Promise<CacheStore>;
}

/** Methods that change nothing (RFC 9110 §9.2.1): any other one that succeeds invalidates. */
const SAFE = new Set(['GET', 'HEAD', 'OPTIONS', 'TRACE']);

/**
 * Answer GET requests from a stored copy while it is fresh, and store cacheable responses.
 * Stored: 200 responses to GET without `Set-Cookie`, whose Cache-Control allows a shared cache
 * (no `private`, `no-store` or `no-cache`) and gives a lifetime (`s-maxage`, else `max-age`, else
 * the `maxAge` option), and whose Vary is not `*`. A request with Authorization is only answered
 * from, or stored in, the cache when the response says `public` or `s-maxage`. Vary is checked by
 * the middleware (one variant per URL, the latest), the same on every runtime. A hit carries `Age`.
 * A POST, PUT, PATCH or DELETE (any unsafe method) that succeeds (2xx or 3xx) removes the copy of
 * its URL, and of its Location and Content-Location on the same host, before the answer goes.
 * See docs/rate-limit.md#cache.
 *
 * @example
 * import { cache } from 'rove/cache';
 * app.use('/api/public', cache());
 * app.get('/api/public/prices', (c) => c.json(prices, 200, { 'cache-control': 'public, max-age=60', vary: 'accept-language' }));
 */
export function cache(options: CacheOptions = {}): Handler {
  const cacheName = options.cacheName ?? 'rove';
  const defaultMaxAge = options.maxAge ?? 0;
  const maxSize = options.maxSize ?? 1024 * 1024;
  if (!(defaultMaxAge >= 0) || !Number.isFinite(defaultMaxAge)) throw new RangeError('cache(): maxAge is a number of seconds, 0 or more');
  if (!(maxSize >= 0)) throw new RangeError('cache(): maxSize is a number of bytes, 0 or more');
  let opened: Promise<CacheStore> | undefined;
  const given = options.store;
  const storeFor =
    typeof given === 'function'
      ? given
      : given !== undefined
        ? () => given
        : () => {
            const storage = (globalThis as { caches?: CacheStorageLike }).caches;
            if (storage === undefined || typeof storage.open !== 'function') return (opened ??= Promise.resolve(memoryCache()));
            return (opened ??= storage.open(cacheName));
          };

  const order = new WriteOrder();
  let warned = false;
  const warnOnce = (error: unknown) => {
    if (warned) return;
    warned = true;
    console.error(`rove: cache(): the cache store failed; requests pass through uncached when it does`, error);
  };

  const layer: Handler = async (c, next) => {
    const method = c.req.method;
    if (method !== 'GET') {
      if (SAFE.has(method)) return next();
      await next();
      const status = c.res.status;
      if (status >= 200 && status < 400) await invalidate(c, storeFor, order, c.res.headers).catch(warnOnce);
      return;
    }
    const mark = order.mark();
    // The cache is an optimisation: a store that fails (bare workerd has no cache behind its Cache API) means a miss.
    let store: CacheStore;
    try {
      store = await storeFor(c);
    } catch (error) {
      warnOnce(error);
      return next();
    }
    const key = new Request(c.req.url);
    const authorized = c.req.header('authorization') !== undefined;
    const noCacheRequest = /\bno-cache\b/i.test(c.req.header('cache-control') ?? '');
    if (!noCacheRequest) {
      const hit = await store.match(key).catch((error: unknown) => {
        warnOnce(error);
        return undefined;
      });
      if (hit !== undefined) {
        const fresh = freshFor(hit, c.req.header.bind(c.req), authorized, defaultMaxAge);
        if (fresh !== undefined) {
          const headers = new Headers(hit.headers);
          headers.delete(STORED_AT);
          headers.delete(VARY_VALUES);
          headers.set('age', String(fresh));
          return new Response(hit.body, { status: hit.status, statusText: hit.statusText, headers });
        }
        hit.body?.cancel().catch(() => {});
      }
    }
    await next();
    const res = c.res;
    const lifetime = storable(res, authorized, defaultMaxAge, maxSize);
    if (lifetime === undefined) return;
    const copy = res.clone();
    const headers = new Headers(copy.headers);
    headers.set(STORED_AT, String(Date.now()));
    headers.set(VARY_VALUES, varyValues(res.headers.get('vary'), c.req.header.bind(c.req)));
    // Workers stores by the response's Cache-Control too: the lifetime this middleware decided.
    if (res.headers.get('cache-control') === null) headers.set('cache-control', `max-age=${lifetime}`);
    // Read the copy in the background, at most maxSize bytes: the client's response is not held up.
    // A write to the URL that succeeded meanwhile makes this copy old: it is not stored.
    const put = readUpTo(copy.body, maxSize)
      .then((body) =>
        body === undefined || !order.mayStore(key.url, mark)
          ? undefined
          : store.put(key, new Response(body as BodyInit, { status: copy.status, headers }), lifetime),
      )
      .catch(warnOnce);
    order.storing(key.url, put);
    c.executionCtx.waitUntil(put);
  };
  return named('cache', layer);
}

type HeaderOf = (name: string) => string | undefined;

/** Forget the target URI, and its Location and Content-Location on the same host (RFC 9111 §4.4). */
async function invalidate(
  c: Context<any, any>,
  storeFor: (c: Context<any, any>) => CacheStore | Promise<CacheStore>,
  order: WriteOrder,
  headers: Headers,
): Promise<void> {
  const target = new URL(c.req.url);
  const urls = new Set([target.href]);
  for (const name of ['location', 'content-location']) {
    const value = headers.get(name);
    if (value === null) continue;
    try {
      const other = new URL(value, target);
      if (other.host === target.host && (other.protocol === 'http:' || other.protocol === 'https:')) urls.add(other.href);
    } catch {
      // not a URL: nothing to forget
    }
  }
  // Marked at once, before any await: a read's copy whose store has not begun is dropped.
  const storing = [...urls].map((url) => order.changed(url));
  const store = await storeFor(c);
  await Promise.all(storing);
  await Promise.all([...urls].map((url) => store.delete(new Request(url))));
}

function directives(cacheControl: string | null): Map<string, string | true> {
  const map = new Map<string, string | true>();
  if (cacheControl === null) return map;
  for (const part of cacheControl.split(',', 64)) {
    const [name, value] = part.trim().split('=', 2);
    if (name) map.set(name.toLowerCase(), value === undefined ? true : value.replace(/^"|"$/g, ''));
  }
  return map;
}

/** Seconds a response may be kept by a shared cache, or undefined when it must not be stored. */
function lifetimeOf(headers: Headers, authorized: boolean, defaultMaxAge: number): number | undefined {
  const cc = directives(headers.get('cache-control'));
  if (cc.has('private') || cc.has('no-store') || cc.has('no-cache')) return undefined;
  if (authorized && !cc.has('public') && !cc.has('s-maxage')) return undefined;
  const seconds = cc.get('s-maxage') ?? cc.get('max-age');
  const lifetime = typeof seconds === 'string' ? Number.parseInt(seconds, 10) : defaultMaxAge;
  return Number.isFinite(lifetime) && lifetime > 0 ? lifetime : undefined;
}

function storable(res: Response, authorized: boolean, defaultMaxAge: number, maxSize: number): number | undefined {
  if (res.status !== 200 || res.headers.has('set-cookie')) return undefined;
  const vary = res.headers.get('vary');
  if (vary?.split(',').some((v) => v.trim() === '*')) return undefined;
  const length = res.headers.get('content-length');
  if (length !== null && !(Number(length) <= maxSize)) return undefined;
  return lifetimeOf(res.headers, authorized, defaultMaxAge);
}

/** The request's values of the headers a response varies on, as one string to compare. */
function varyValues(vary: string | null, header: HeaderOf): string {
  if (vary === null) return '';
  const names = vary
    .split(',', 32)
    .map((v) => v.trim().toLowerCase())
    .filter(Boolean)
    .sort();
  return new URLSearchParams(names.map((name) => [name, header(name) ?? ''])).toString();
}

/** The stored copy's age in seconds when it is fresh and matches this request's Vary values, else undefined. */
function freshFor(hit: Response, header: HeaderOf, authorized: boolean, defaultMaxAge: number): number | undefined {
  const storedAt = Number(hit.headers.get(STORED_AT));
  if (!Number.isFinite(storedAt) || storedAt <= 0) return undefined;
  if (varyValues(hit.headers.get('vary'), header) !== (hit.headers.get(VARY_VALUES) ?? '')) return undefined;
  const lifetime = lifetimeOf(hit.headers, authorized, defaultMaxAge);
  if (lifetime === undefined) return undefined;
  const age = Math.max(0, Math.floor((Date.now() - storedAt) / 1000));
  return age < lifetime ? age : undefined;
}

/** The whole body when it is at most `max` bytes, else undefined (the rest is not read). */
async function readUpTo(body: ReadableStream<Uint8Array> | null, max: number): Promise<Uint8Array | undefined> {
  if (body === null) return new Uint8Array(0);
  const reader = body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > max) {
      await reader.cancel();
      return undefined;
    }
    chunks.push(value);
  }
  const out = new Uint8Array(size);
  let at = 0;
  for (const chunk of chunks) {
    out.set(chunk, at);
    at += chunk.byteLength;
  }
  return out;
}
