// `rove/views` on Deno: the views engine plus a loader on Deno's own file API. node:fs works on
// Deno too, but the first node: module starts Deno's Node compatibility layer, a cold-start cost
// an app with views should not pay (adapters/shared/views-fs.ts is the Node and Bun loader).
import { createViews as createViewsCore, type ViewSource, type Views, type ViewsOptions } from '../../src/views/index.ts';
import { dirUrl } from './fs-url.ts';

export * from '../../src/views/index.ts';

// The few Deno APIs used here, declared so the file type-checks without Deno's lib.
declare const Deno: {
  readTextFile(path: URL): Promise<string>;
  readDir(path: URL): AsyncIterable<{ name: string; isFile: boolean; isDirectory: boolean }>;
};

/** Deno's "not there" errors, by name or code: a view that is not a file reads as missing. */
const MISSING = new Set(['NotFound', 'NotADirectory', 'IsADirectory', 'ENOENT', 'ENOTDIR', 'EISDIR']);

/** A ViewSource reading `<dir>/<name>`; names can never leave `dir` (a path, a `file:` URL or its string). */
export function fileSource(dir: string | URL): ViewSource {
  const root = dirUrl(dir);
  return {
    async read(name) {
      // Names are checked before they get here (no `..`, no `\`, no `:`); escaping each segment is the second lock.
      const segments = name.split('/');
      if (segments.some((s) => s === '' || s === '.' || s === '..')) return undefined;
      const file = new URL(segments.map(encodeURIComponent).join('/'), root);
      if (!file.href.startsWith(root.href)) return undefined;
      try {
        return await Deno.readTextFile(file);
      } catch (err) {
        const e = err as { name?: string; code?: string };
        if (MISSING.has(e.name ?? '') || MISSING.has(e.code ?? '')) return undefined;
        throw err;
      }
    },
    async list() {
      const out: string[] = [];
      const walk = async (sub: string) => {
        const at = sub === '' ? root : new URL(`${sub.split('/').map(encodeURIComponent).join('/')}/`, root);
        for await (const e of Deno.readDir(at)) {
          const rel = sub === '' ? e.name : `${sub}/${e.name}`;
          if (e.isDirectory) await walk(rel);
          else if (e.isFile) out.push(rel);
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
 *
 * @example
 * import { createViews } from 'rove/views';
 * const app = new App({ views: createViews({ dir: new URL('./views/', import.meta.url) }) });
 */
export function createViews(options: ViewsOptions = {}): Views {
  if (options.dir !== undefined && options.reader === undefined) {
    return createViewsCore({ ...options, reader: fileSource(options.dir) });
  }
  return createViewsCore(options);
}
