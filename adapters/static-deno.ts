/**
 * rove/static on Deno and Deno Deploy (`deno serve`): files under `root` read
 * with Deno's own file API. Small files are read in one call; larger ones are
 * streamed (the whole file through `FsFile.readable`, Deno's own file body).
 * On Deno Deploy, `root` names a directory of the deployed project. The real
 * path a name resolved to is remembered for up to a second (bounded); the
 * file is opened and stat'ed afresh on every request, and a revalidation
 * (If-None-Match) costs one lstat.
 */
import type { Handler } from '../src/compose.ts';
import type { FileSource, OpenResult, ServeStaticOptions } from '../src/static/index.ts';
import { serveFrom } from '../src/static/index.ts';
import { Recent } from '../src/static/recent.ts';

export * from '../src/static/index.ts';

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
}
interface DenoFs {
  realPath(path: string): Promise<string>;
  realPathSync(path: string): string;
  stat(path: string): Promise<DenoStat>;
  lstat(path: string): Promise<DenoStat>;
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
 * A FileSource over Deno's file API: realPath, containment check, stat, open.
 *
 * @example
 * const source = fileSource('public');
 */
export function fileSource(root: string): FileSource {
  const base = realRoot(root);
  // Where a name resolved and what it was (stat'ed first: opening a FIFO would wait for a writer), remembered for a second.
  const recent = new Recent<{ real: string; kind: 'file' | 'directory' } | null>();
  const resolve = async (rel: string) => {
    try {
      const real = await deno.realPath(`${base}/${rel}`);
      if (!inside(base, real)) return null;
      const pre = await deno.stat(real);
      return pre.isDirectory ? { real, kind: 'directory' as const } : pre.isFile ? { real, kind: 'file' as const } : null;
    } catch {
      return null;
    }
  };
  const where = async (rel: string) => {
    const found = await resolve(rel);
    recent.set(rel, found);
    return found;
  };
  return {
    async open(rel): Promise<OpenResult> {
      const known = recent.get(rel);
      const found = known === undefined ? await where(rel) : known;
      if (found === null) return undefined;
      if (found.kind === 'directory') return 'directory';
      const real = found.real;
      try {
        const file = await deno.open(real, { read: true });
        const st = await file.stat().catch((err) => {
          file.close();
          throw err;
        });
        if (!st.isFile) {
          file.close();
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
        return {
          size: st.size,
          mtimeMs: st.mtime === null ? Number.NaN : st.mtime.getTime(),
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
        return undefined;
      }
    },
    // One lstat: a last name that turned into a symlink since realPath is no file here.
    async stat(rel) {
      const known = recent.get(rel);
      const found = known === undefined ? await where(rel) : known;
      if (found === null || found.kind !== 'file') return undefined;
      try {
        const st = await deno.lstat(found.real);
        return st.isFile ? { size: st.size, mtimeMs: st.mtime === null ? Number.NaN : st.mtime.getTime() } : undefined;
      } catch {
        return undefined;
      }
    },
  };
}

async function readSmall(file: DenoFile, start: number, end: number, close: () => void): Promise<BodyInit> {
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
