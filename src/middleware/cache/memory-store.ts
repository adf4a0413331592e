import { type CacheStore, fromStored, type StoredResponse, toStored } from './store.ts';

export interface MemoryCacheOptions {
  /** Most copies kept; the least recently used goes first. Default 1000. */
  maxEntries?: number;
  /** Most body bytes kept in all, likewise. Default 32 MiB. */
  maxBytes?: number;
}

/**
 * Copies kept in this process's memory, bounded by count and bytes (least recently used out
 * first): cache()'s store where the runtime has no Cache API (Node, Bun). Each process of a
 * group keeps its own; `redisCache()` shares one.
 *
 * @example
 * import { cache, memoryCache } from 'rove/cache';
 * app.use('/api/public', cache({ store: memoryCache({ maxEntries: 500 }) }));
 */
export function memoryCache(options: MemoryCacheOptions = {}): CacheStore {
  const maxEntries = options.maxEntries ?? 1000;
  const maxBytes = options.maxBytes ?? 32 * 1024 * 1024;
  if (!(maxEntries >= 1)) throw new RangeError('memoryCache(): maxEntries must be 1 or more');
  if (!(maxBytes >= 0)) throw new RangeError('memoryCache(): maxBytes must be 0 or more');
  // A Map keeps insertion order: re-inserting on use makes its first key the least recently used.
  const entries = new Map<string, StoredResponse>();
  let bytes = 0;
  const remove = (url: string) => {
    const old = entries.get(url);
    if (old === undefined) return false;
    entries.delete(url);
    bytes -= old.body.byteLength;
    return true;
  };
  return {
    async match(key) {
      const found = entries.get(key.url);
      if (found === undefined) return undefined;
      entries.delete(key.url);
      entries.set(key.url, found);
      return fromStored(found);
    },
    async put(key, response) {
      const stored = await toStored(response);
      remove(key.url);
      if (stored.body.byteLength > maxBytes) return;
      entries.set(key.url, stored);
      bytes += stored.body.byteLength;
      for (const url of entries.keys()) {
        if (entries.size <= maxEntries && bytes <= maxBytes) break;
        remove(url);
      }
    },
    async delete(key) {
      return remove(key.url);
    },
  };
}
