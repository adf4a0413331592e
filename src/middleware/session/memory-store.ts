import type { SessionStore } from './store.ts';

export interface MemoryStoreOptions {
  /** Sessions kept at most; the least recently used goes first. Default 10,000. */
  maxEntries?: number;
  /** Largest value kept, in bytes (UTF-16 code units); a larger session is an error. Default 64 KiB. */
  maxValueSize?: number;
}

/**
 * Sessions in this process's memory, for development and single-process servers. Bounded:
 * at most `maxEntries` sessions (least recently used evicted first), each forgotten at its
 * expiry. Everything is lost on restart, and processes or isolates do not share it.
 *
 * @example
 * app.use(session({ keys: [process.env.SESSION_SECRET!], store: memoryStore({ maxEntries: 1000 }) }));
 */
export function memoryStore(options: MemoryStoreOptions = {}): SessionStore {
  const maxEntries = options.maxEntries ?? 10_000;
  const maxValueSize = options.maxValueSize ?? 64 * 1024;
  if (!Number.isInteger(maxEntries) || maxEntries < 1) throw new RangeError('memoryStore: maxEntries must be a whole number of at least 1');
  if (!(maxValueSize > 0)) throw new RangeError('memoryStore: maxValueSize must be a positive number of bytes');
  // Map order is insertion order: re-inserting on use keeps the least recently used first.
  const entries = new Map<string, { value: string; expires: number }>();
  let lastSweep = 0;
  return {
    async get(id) {
      const entry = entries.get(id);
      if (entry === undefined) return null;
      entries.delete(id);
      if (entry.expires <= Date.now()) return null;
      entries.set(id, entry);
      return entry.value;
    },
    async set(id, value, maxAge) {
      if (value.length > maxValueSize) throw new RangeError(`Session is ${value.length} bytes, over the memory store's maxValueSize of ${maxValueSize}`);
      entries.delete(id);
      if (entries.size >= maxEntries) {
        const now = Date.now();
        // A full scan for expired sessions at most once a second; between scans, the least recently used go.
        if (now - lastSweep >= 1000) {
          lastSweep = now;
          for (const [key, entry] of entries) if (entry.expires <= now) entries.delete(key);
        }
        for (const key of entries.keys()) {
          if (entries.size < maxEntries) break;
          entries.delete(key);
        }
      }
      entries.set(id, { value, expires: Date.now() + maxAge * 1000 });
    },
    async delete(id) {
      entries.delete(id);
    },
  };
}
