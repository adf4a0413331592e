/**
 * rove/static on Node (and the default for any runtime with node:fs): files
 * under `root`, opened once per request, small ones read in one call and
 * larger ones streamed in 64 KiB chunks.
 */
import { type FileHandle, open, realpath } from 'node:fs/promises';
import { join } from 'node:path';
import type { Handler } from '../src/compose.ts';
import type { FileSource, OpenResult, ServeStaticOptions } from '../src/static/index.ts';
import { serveFrom } from '../src/static/index.ts';
import { FLAGS, fileBody, inside, realRoot } from './static-fs.ts';

export * from '../src/static/index.ts';

/**
 * A FileSource over node:fs/promises: realpath, containment check, open, fstat.
 *
 * @example
 * const source = fileSource('public');
 * await source.open('app.css'); // { size, mtimeMs, body(), close() } or undefined
 */
export function fileSource(root: string): FileSource {
  const base = realRoot(root);
  return {
    async open(rel): Promise<OpenResult> {
      let real: string;
      try {
        real = await realpath(join(base, rel));
      } catch {
        return undefined;
      }
      if (!inside(base, real)) return undefined;
      let fh: FileHandle;
      try {
        fh = await open(real, FLAGS);
      } catch {
        return undefined;
      }
      try {
        const st = await fh.stat();
        if (st.isDirectory()) {
          await fh.close();
          return 'directory';
        }
        if (!st.isFile()) {
          await fh.close();
          return undefined;
        }
        return {
          size: st.size,
          mtimeMs: st.mtimeMs,
          body: (start, end) => fileBody(fh, start, end),
          close: () => {
            fh.close().catch(() => {});
          },
        };
      } catch {
        await fh.close().catch(() => {});
        return undefined;
      }
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
