/**
 * `rove/views` on Node and Bun: the views engine plus a loader that reads a
 * views directory with node:fs/promises. Deno has its own (adapters/deno/views.ts:
 * a node: module would start its Node layer), and Workers bundles resolve
 * `rove/views` to src/views/index.ts, so node:fs never enters either.
 */
import { readdir, readFile } from 'node:fs/promises';
import { isAbsolute, relative, resolve, sep } from 'node:path';
import { createViews as createViewsCore, type ViewSource, type Views, type ViewsOptions } from '../../src/views/index.ts';
import { toFsPath } from './fs-path.ts';

export * from '../../src/views/index.ts';

/** A ViewSource reading `<dir>/<name>`; names can never leave `dir` (a path, a `file:` URL or its string). */
export function fileSource(dir: string | URL): ViewSource {
  const root = toFsPath(dir);
  return {
    async read(name) {
      const file = resolve(root, name);
      // Names are checked before they get here; this is the second lock on the door.
      const rel = relative(root, file);
      if (rel === '' || rel.startsWith('..') || isAbsolute(rel)) return undefined;
      try {
        return await readFile(file, 'utf8');
      } catch (err) {
        const code = (err as { code?: string }).code;
        if (code === 'ENOENT' || code === 'ENOTDIR' || code === 'EISDIR') return undefined;
        throw err;
      }
    },
    async list() {
      const out: string[] = [];
      const walk = async (sub: string) => {
        const entries = await readdir(resolve(root, sub), { withFileTypes: true });
        for (const e of entries) {
          const rel = sub === '' ? e.name : `${sub}/${e.name}`;
          if (e.isDirectory()) await walk(rel);
          else if (e.isFile()) out.push(rel.split(sep).join('/'));
        }
      };
      await walk('');
      return out.sort();
    },
  };
}

/**
 * createViews({ dir }) reads views from a directory (a path, or a URL such as
 * `new URL('./views/', import.meta.url)`), caching compiled views;
 * with `dev: true` an edited file shows up on the next render. Everything
 * else is as in the core engine (templates, compiled, reader).
 */
export function createViews(options: ViewsOptions = {}): Views {
  if (options.dir !== undefined && options.reader === undefined) {
    return createViewsCore({ ...options, reader: fileSource(options.dir) });
  }
  return createViewsCore(options);
}
