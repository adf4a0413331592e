/**
 * rove/static on Deno and Deno Deploy (`deno serve`): files under `root` read
 * with Deno's own file API. On Deno Deploy, `root` names a directory of the
 * deployed project. The real path a name resolved to is remembered for up to a
 * second (bounded). Each request lstats that path (synchronously: see lstatNow): a revalidation is answered
 * from it, and a small file whose bytes are kept (FileCache: same size, mtime,
 * ctime and inode) is sent from memory. Otherwise the file is opened: small ones
 * are read in one call (and kept when settled), larger ones streamed (the whole
 * file through `FsFile.readable`, Deno's own file body).
 */
import type { Handler } from '../../src/core/compose.ts';
import type { FileSource, OpenResult, ServeStaticOptions } from '../../src/middleware/static/index.ts';
import { FileCache, type FileStat, type FileVersion, inMemory, serveFrom } from '../../src/middleware/static/index.ts';
import { realPathSource } from '../../src/middleware/static/real-path-source.ts';

export * from '../../src/middleware/static/index.ts';

// The few Deno APIs used here, declared so the file type-checks without Deno's lib.
interface DenoFile {
  readonly readable: ReadableStream<Uint8Array>;
  read(p: Uint8Array): Promise<number | null>;
  seek(offset: number, whence: number): Promise<number>;
  close(): void;
}
interface DenoStat {
  isFile: boolean;
  isDirectory: boolean;
  size: number;
  mtime: Date | null;
  ctime?: Date | null;
  ino: number | null;
}
interface DenoFs {
  realPath(path: string): Promise<string>;
  realPathSync(path: string): string;
  lstatSync(path: string): DenoStat;
  open(path: string, options: { read: true }): Promise<DenoFile & { stat(): Promise<DenoStat> }>;
  cwd(): string;
}
const deno = (globalThis as unknown as { Deno: DenoFs }).Deno;

/** Files up to this size are read with one read(); larger ones stream. */
const SMALL_FILE = 64 * 1024;
const CHUNK = 64 * 1024;
const SEEK_START = 0;

function realRoot(root: string): string {
  const abs = root.startsWith('/') ? root : `${deno.cwd()}/${root}`;
  try {
    return deno.realPathSync(abs).replace(/\/+$/, '') || '/';
  } catch (err) {
    throw new Error(`serveStatic: root ${JSON.stringify(root)} cannot be read (${(err as Error).message})`);
  }
}

function inside(root: string, real: string): boolean {
  return real === root || real.startsWith(root === '/' ? root : `${root}/`);
}

/**
 * A FileSource over Deno's file API: realPath and the containment check (remembered for a
 * second), then per request an lstat, and the kept bytes or the file opened.
 *
 * @example
 * const source = fileSource('public');
 */
export function fileSource(root: string): FileSource {
  const base = realRoot(root);
  const cache = new FileCache();
  const resolve = async (rel: string) => {
    let real: string | null = null;
    try {
      real = await deno.realPath(`${base}/${rel}`);
    } catch {
      // missing, or a loop: nothing to serve
    }
    if (real !== null && !inside(base, real)) real = null;
    return real;
  };
  const openReal = (real: string): OpenResult | Promise<OpenResult> => {
    const pre = lstatNow(real);
    if (pre === undefined) return undefined;
    if (pre.isDirectory) return 'directory';
    if (!pre.isFile) return undefined;
    const kept = cache.get(real, versionOf(pre));
    // A kept file is answered with no promise at all.
    if (kept !== undefined) return inMemory(kept, mtimeOf(pre));
    return readReal(real);
  };
  /** The file opened, stat'ed and, when small, read whole (and kept when settled). */
  const readReal = async (real: string): Promise<OpenResult> => {
    const statAt = Date.now();
    let file: Awaited<ReturnType<DenoFs['open']>>;
    try {
      file = await deno.open(real, { read: true });
    } catch {
      return undefined;
    }
    let closed = false;
    const close = () => {
      if (closed) return;
      closed = true;
      try {
        file.close();
      } catch {
        // already closed by its readable
      }
    };
    try {
      const st = await file.stat();
      if (!st.isFile) {
        close();
        return undefined;
      }
      if (st.size <= cache.maxFile) {
        const bytes = await readSmall(file, 0, st.size - 1, close);
        cache.offer(real, versionOf(st), bytes, statAt);
        return inMemory(bytes, mtimeOf(st));
      }
      return {
        size: st.size,
        mtimeMs: mtimeOf(st),
        body: (start, end) => {
          if (end - start + 1 <= SMALL_FILE) return readSmall(file, start, end, close);
          if (start === 0 && end === st.size - 1) {
            closed = true; // the readable closes the file at its end or on cancel
            return file.readable;
          }
          return streamRange(file, start, end - start + 1, close);
        },
        close,
      };
    } catch {
      close();
      return undefined;
    }
  };
  // A revalidation's only file access, answered with no promise.
  const statReal = (real: string): FileStat | undefined => {
    const st = lstatNow(real);
    return st?.isFile ? { size: st.size, mtimeMs: mtimeOf(st) } : undefined;
  };
  return realPathSource(resolve, openReal, statReal);
}

/**
 * lstat, never stat: a last name that turned into a symlink since realPath is no file here. It
 * comes before any open, too: opening a FIFO would wait for a writer. Synchronous on purpose, as on
 * Node: one syscall against a path already resolved (and remembered) costs less than the async
 * op's hop to the blocking pool and back; realPath, open and read stay asynchronous.
 */
function lstatNow(real: string): DenoStat | undefined {
  try {
    return deno.lstatSync(real);
  } catch {
    return undefined;
  }
}

function mtimeOf(st: DenoStat): number {
  return st.mtime === null ? Number.NaN : st.mtime.getTime();
}

function versionOf(st: DenoStat): FileVersion {
  return { size: st.size, mtimeMs: mtimeOf(st), ctimeMs: st.ctime == null ? Number.NaN : st.ctime.getTime(), ino: st.ino ?? Number.NaN };
}

async function readSmall(file: DenoFile, start: number, end: number, close: () => void): Promise<Uint8Array<ArrayBuffer>> {
  try {
    const length = end - start + 1;
    const buf = new Uint8Array(length);
    if (start > 0) await file.seek(start, SEEK_START);
    let got = 0;
    while (got < length) {
      const n = await file.read(buf.subarray(got));
      if (n === null || n === 0) break;
      got += n;
    }
    return got === length ? buf : buf.subarray(0, got);
  } finally {
    close();
  }
}

function streamRange(file: DenoFile, start: number, length: number, close: () => void): ReadableStream<Uint8Array> {
  let left = length;
  let sought = false;
  return new ReadableStream<Uint8Array>({
    async pull(controller) {
      try {
        if (!sought) {
          await file.seek(start, SEEK_START);
          sought = true;
        }
        const buf = new Uint8Array(Math.min(CHUNK, left));
        const n = await file.read(buf);
        if (n === null || n === 0) {
          close();
          controller.close();
          return;
        }
        left -= n;
        controller.enqueue(n === buf.length ? buf : buf.subarray(0, n));
        if (left === 0) {
          close();
          controller.close();
        }
      } catch (err) {
        close();
        controller.error(err);
      }
    },
    cancel() {
      close();
    },
  });
}

/**
 * Serve the files under `root`, below the URL `prefix` (Deno, Deno Deploy).
 * Same behaviour as on Node; see docs/static.md.
 *
 * @example
 * import { serveStatic } from 'rove/static';
 * app.use('/static', serveStatic({ root: './public', prefix: '/static' }));
 */
export function serveStatic(options: ServeStaticOptions = {}): Handler {
  return serveFrom(fileSource(options.root ?? '.'), options);
}
