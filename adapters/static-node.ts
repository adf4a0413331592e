/**
 * rove/static on Node (and the default for any runtime with node:fs): files
 * under `root`, opened once per request, small ones read in one call and
 * larger ones streamed in 64 KiB chunks. The real path a name resolved to is
 * remembered for up to a second (bounded); the file is opened and stat'ed
 * afresh on every request, and a revalidation (If-None-Match) costs one lstat.
 */
import { join } from 'node:path';
import type { Handler } from '../src/compose.ts';
import type { FileSource, OpenResult, ServeStaticOptions } from '../src/static/index.ts';
import { serveFrom } from '../src/static/index.ts';
import { Recent } from '../src/static/recent.ts';
import { closeFd, fileBody, inside, openFile, realPath, realRoot, statFile } from './static-fs.ts';

export * from '../src/static/index.ts';

/**
 * A FileSource over node:fs: realpath, containment check, open, fstat.
 *
 * @example
 * const source = fileSource('public');
 * await source.open('app.css'); // { size, mtimeMs, body(), close() } or undefined
 */
export function fileSource(root: string): FileSource {
  const base = realRoot(root);
  // Where a name resolved (null: nowhere inside the root), remembered for a second.
  const recent = new Recent<string | null>();
  const resolve = async (rel: string): Promise<string | null> => {
    const resolved = (await realPath(join(base, rel))) ?? null;
    const real = resolved !== null && inside(base, resolved) ? resolved : null;
    recent.set(rel, real);
    return real;
  };
  return {
    async open(rel): Promise<OpenResult> {
      const known = recent.get(rel);
      const real = known === undefined ? await resolve(rel) : known;
      if (real === null) return undefined;
      const opened = await openFile(real);
      if (opened === undefined) return undefined;
      const { fd, stats } = opened;
      if (!stats.isFile()) {
        closeFd(fd);
        return stats.isDirectory() ? 'directory' : undefined;
      }
      return {
        size: stats.size,
        mtimeMs: stats.mtimeMs,
        body: (start, end) => fileBody(fd, start, end),
        close: () => closeFd(fd),
      };
    },
    // One lstat: a last name that turned into a symlink since realpath is no file here (open refuses it too).
    stat(rel) {
      const known = recent.get(rel);
      if (known === undefined) return resolve(rel).then((real) => (real === null ? undefined : statFile(real)));
      return known === null ? undefined : statFile(known);
    },
  };
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
