// `rove/views` on Deno: the views engine plus a loader on Deno's own file API. node:fs works on
// Deno too, but the first node: module starts Deno's Node compatibility layer, a cold-start cost
// an app with views should not pay (adapters/shared/views-fs.ts is the Node and Bun loader).
import { createViews as createViewsCore, type ViewSource, type Views, type ViewsOptions } from '../../src/views/index.ts';

export * from '../../src/views/index.ts';

// The few Deno APIs used here, declared so the file type-checks without Deno's lib.
declare const Deno: {
  cwd(): string;
  readTextFile(path: URL): Promise<string>;
  readDir(path: URL): AsyncIterable<{ name: string; isFile: boolean; isDirectory: boolean }>;
  build: { os: string };
};

/** Deno's "not there" errors, by name or code: a view that is not a file reads as missing. */
const MISSING = new Set(['NotFound', 'NotADirectory', 'IsADirectory', 'ENOENT', 'ENOTDIR', 'EISDIR']);

/** A path as a file: URL, each segment escaped (a `%`, `?` or `#` in a name is a character, not syntax). */
function pathUrl(path: string): URL {
  const windows = Deno.build.os === 'windows';
  const p = windows ? path.replaceAll('\\', '/') : path;
  const absolute = windows ? /^[a-zA-Z]:\//.test(p) : p.startsWith('/');
  const full = absolute ? p : `${(windows ? Deno.cwd().replaceAll('\\', '/') : Deno.cwd()).replace(/\/$/, '')}/${p}`;
  const segments = full.split('/').map((s, i) => (windows && i === 0 ? s : encodeURIComponent(s)));
  return new URL(`file://${windows ? '/' : ''}${segments.join('/')}`); // URL drops `.` and `..` segments
}

/** `dir` as a file: URL ending in `/`: a URL, a `file:` string, or a path relative to the working directory. */
function rootUrl(dir: string | URL): URL {
  let url: URL;
  if (dir instanceof URL) {
    if (dir.protocol !== 'file:') throw new TypeError(`Expected a file: URL or a path, got ${dir.href}`);
    url = new URL(dir.href);
  } else if (typeof dir !== 'string') {
    throw new TypeError(`Expected a path or a file: URL, got ${typeof dir}`);
  } else {
    url = dir.startsWith('file:') ? new URL(dir) : pathUrl(dir);
  }
  url.search = '';
  url.hash = '';
  if (!url.pathname.endsWith('/')) url.pathname += '/';
  return url;
}

/** A ViewSource reading `<dir>/<name>`; names can never leave `dir` (a path, a `file:` URL or its string). */
export function fileSource(dir: string | URL): ViewSource {
  const root = rootUrl(dir);
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
