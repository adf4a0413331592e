/**
 * rove/static on Node (and the default for any runtime with node:fs): files
 * under `root`. The real path a name resolved to is remembered for up to a
 * second (bounded). Each request lstats that path (synchronously: see lstatNow): a revalidation is answered
 * from it, and a small file whose bytes are kept (FileCache: same size, mtime,
 * ctime and inode) is sent from memory. Otherwise the file is opened, small ones
 * are read in one call (and kept when settled), larger ones streamed in 64 KiB chunks.
 */
import { join } from 'node:path';
import type { Handler } from '../../src/core/compose.ts';
import type { FileSource, FileStat, OpenResult, ServeStaticOptions } from '../../src/middleware/static/index.ts';
import { FileCache, inMemory, serveFrom } from '../../src/middleware/static/index.ts';
import { realPathSource } from '../../src/middleware/static/real-path-source.ts';
import { closeFd, fileBody, inside, lstatNow, openFile, readBytes, realPath, realRoot, versionOf } from '../shared/static-fs.ts';

export * from '../../src/middleware/static/index.ts';

/**
 * A FileSource over node:fs: realpath, containment check, open, fstat.
 *
 * @example
 * const source = fileSource('public');
 * await source.open('app.css'); // { size, mtimeMs, body(), close() } or undefined
 */
export function fileSource(root: string): FileSource {
  const base = realRoot(root);
  const cache = new FileCache();
  const resolve = async (rel: string): Promise<string | null> => {
    const resolved = (await realPath(join(base, rel))) ?? null;
    const real = resolved !== null && inside(base, resolved) ? resolved : null;
    return real;
  };
  /** The file at a real path as it is now: lstat first, then the kept bytes or the file opened. */
  const openReal = (real: string): OpenResult | Promise<OpenResult> => {
    // lstat: a last name that turned into a symlink since realpath is no file here (and O_NOFOLLOW refuses it below).
    const st = lstatNow(real);
    if (st === undefined) return undefined;
    if (st.isDirectory()) return 'directory';
    if (!st.isFile()) return undefined;
    const kept = cache.get(real, versionOf(st));
    // A kept file is answered with no promise at all.
    if (kept !== undefined) return inMemory(kept, st.mtimeMs);
    return readReal(real);
  };
  /** The file opened, fstat'ed and, when small, read whole (and kept when settled). */
  const readReal = async (real: string): Promise<OpenResult> => {
    const statAt = Date.now();
    const opened = await openFile(real);
    if (opened === undefined) return undefined;
    const { fd, stats } = opened;
    if (!stats.isFile()) {
      closeFd(fd);
      return stats.isDirectory() ? 'directory' : undefined;
    }
    if (stats.size <= cache.maxFile) {
      let bytes: Uint8Array<ArrayBuffer>;
      try {
        bytes = await readBytes(fd, 0, stats.size);
      } catch {
        return undefined;
      }
      cache.offer(real, versionOf(stats), bytes, statAt);
      return inMemory(bytes, stats.mtimeMs);
    }
    return {
      size: stats.size,
      mtimeMs: stats.mtimeMs,
      body: (start, end) => fileBody(fd, start, end),
      close: () => closeFd(fd),
    };
  };
  return realPathSource(resolve, openReal, statFile);
}

/** A revalidation's only file access, answered with no promise. A Stats is a FileStat as it is. */
function statFile(real: string): FileStat | undefined {
  const st = lstatNow(real);
  return st?.isFile() ? st : undefined;
}

/**
 * Serve the files under `root`, below the URL `prefix`: ETag and Last-Modified,
 * 304s, single Range requests, HEAD, index.html, optional `.br`/`.gz` siblings.
 * A path that would leave the root answers 404; a missing file falls through to
 * the next handler (so the app's 404).
 *
 * @example
 * import { serveStatic } from 'rove/static';
 * app.use('/static', serveStatic({ root: './public', prefix: '/static', cacheControl: 'public, max-age=3600' }));
 */
export function serveStatic(options: ServeStaticOptions = {}): Handler {
  return serveFrom(fileSource(options.root ?? '.'), options);
}
