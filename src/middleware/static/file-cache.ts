// The bytes of small, settled files, kept so a busy stylesheet costs one stat per request
// instead of an open, a read and a close. Every hit is checked against the file's stat of
// this request; what may change unseen (a file written in the last seconds) is never kept.
import type { StaticFile } from './source.ts';

/** What identifies one version of a file: a write, a rename over it or a `touch` changes it. */
export interface FileVersion {
  readonly size: number;
  readonly mtimeMs: number;
  /** Status-change time: also moves when a tool puts an old mtime back (`cp -p`, rsync). NaN when unknown. */
  readonly ctimeMs: number;
  /** The inode: a file replaced by rename is another file. NaN when unknown. */
  readonly ino: number;
}

/** Largest file kept (bytes). */
export const CACHE_FILE_MAX = 64 * 1024;
/** Most bytes kept in all. */
export const CACHE_BYTES_MAX = 8 * 1024 * 1024;
/** Most files kept. */
export const CACHE_ENTRIES_MAX = 1024;
/**
 * A file whose mtime or ctime is this recent is not kept: a second write within the
 * timestamp's granularity (a jiffy, or a whole second on some file systems) would leave
 * both unchanged, and the stale bytes would then pass every check.
 */
export const SETTLED_MS = 2000;

interface Entry {
  version: FileVersion;
  bytes: Uint8Array<ArrayBuffer>;
}

function same(a: FileVersion, b: FileVersion): boolean {
  // Object.is: NaN (unknown) equals NaN, so a source without ctime or inode still compares the rest.
  return a.size === b.size && a.mtimeMs === b.mtimeMs && Object.is(a.ctimeMs, b.ctimeMs) && Object.is(a.ino, b.ino);
}

/**
 * A bounded least-recently-used memory of small files' bytes, keyed by real path.
 *
 * @example
 * const cache = new FileCache();
 * cache.offer('/srv/public/app.css', stat, bytes, statAt); // kept when small and settled
 * cache.get('/srv/public/app.css', statNow); // the bytes, while statNow names the same version
 */
export class FileCache {
  #map = new Map<string, Entry>();
  #bytes = 0;
  constructor(
    readonly maxBytes: number = CACHE_BYTES_MAX,
    readonly maxFile: number = CACHE_FILE_MAX,
    readonly maxEntries: number = CACHE_ENTRIES_MAX,
  ) {}

  /** The bytes kept for `key` when they are of `version`; a stale entry is dropped. */
  get(key: string, version: FileVersion): Uint8Array<ArrayBuffer> | undefined {
    const hit = this.#map.get(key);
    if (hit === undefined) return undefined;
    this.#map.delete(key);
    if (!same(hit.version, version)) {
      this.#bytes -= hit.bytes.length;
      return undefined;
    }
    this.#map.set(key, hit); // most recently used last
    return hit.bytes;
  }

  /**
   * Keep `bytes` (the whole file, read after the stat that gave `version`) when small and
   * settled. `statAt`: the clock (epoch ms) taken just before that stat, so that any write
   * after the stat carries a later timestamp than the one kept.
   */
  offer(key: string, version: FileVersion, bytes: Uint8Array<ArrayBuffer>, statAt: number): void {
    const size = bytes.length;
    if (size !== version.size || size > this.maxFile || size > this.maxBytes) return;
    const changed = Math.max(version.mtimeMs, Number.isNaN(version.ctimeMs) ? version.mtimeMs : version.ctimeMs);
    if (!(statAt - changed > SETTLED_MS)) return; // also refuses NaN and future times
    const old = this.#map.get(key);
    if (old !== undefined) {
      this.#map.delete(key);
      this.#bytes -= old.bytes.length;
    }
    while (this.#map.size > 0 && (this.#map.size >= this.maxEntries || this.#bytes + size > this.maxBytes)) {
      const [oldest, entry] = this.#map.entries().next().value as [string, Entry];
      this.#map.delete(oldest);
      this.#bytes -= entry.bytes.length;
    }
    this.#map.set(key, { version, bytes });
    this.#bytes += size;
  }

  /** Files and bytes kept now. */
  get size(): { entries: number; bytes: number } {
    return { entries: this.#map.size, bytes: this.#bytes };
  }
}

/**
 * A StaticFile over bytes in memory (a kept file, or one just read whole).
 *
 * @example
 * const file = inMemory(new TextEncoder().encode('body{}'), Date.now());
 * file.body(0, 3); // the first four bytes
 */
export function inMemory(bytes: Uint8Array<ArrayBuffer>, mtimeMs: number): StaticFile {
  return {
    size: bytes.length,
    mtimeMs,
    // A view, never a copy; nothing writes to it (a Response copies what it is given).
    body: (start, end) => (start === 0 && end === bytes.length - 1 ? bytes : bytes.subarray(start, end + 1)),
    close() {},
  };
}
