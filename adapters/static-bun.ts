/**
 * rove/static on Bun: the path and containment checks run with node:fs, and
 * the body is a `Bun.file()` (a slice of it for a Range), Bun's own file
 * response, which it sends without copying the file through JavaScript.
 */
import { realpath, stat } from 'node:fs/promises';
import { join } from 'node:path';
import type { Handler } from '../src/compose.ts';
import type { FileSource, OpenResult, ServeStaticOptions } from '../src/static/index.ts';
import { serveFrom } from '../src/static/index.ts';
import { inside, realRoot } from './static-fs.ts';

export * from '../src/static/index.ts';

interface BunBlob extends Blob {
  slice(start?: number, end?: number): BunBlob;
}
const bun = (globalThis as unknown as { Bun: { file(path: string): BunBlob } }).Bun;

/**
 * A FileSource whose bodies are Bun.file blobs.
 *
 * @example
 * const source = fileSource('public');
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
      try {
        const st = await stat(real);
        if (st.isDirectory()) return 'directory';
        if (!st.isFile()) return undefined;
        return {
          size: st.size,
          mtimeMs: st.mtimeMs,
          body: (start, end) => {
            const blob = bun.file(real);
            return start === 0 && end === st.size - 1 ? blob : blob.slice(start, end + 1);
          },
          close() {},
        };
      } catch {
        return undefined;
      }
    },
  };
}

/**
 * Serve the files under `root`, below the URL `prefix` (Bun). Same behaviour
 * as on Node; see docs/static.md.
 *
 * @example
 * import { serveStatic } from 'rove/static';
 * app.use('/static', serveStatic({ root: './public', prefix: '/static' }));
 */
export function serveStatic(options: ServeStaticOptions = {}): Handler {
  return serveFrom(fileSource(options.root ?? '.'), options);
}
