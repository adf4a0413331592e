// `rove/fs-routes` on Deno: the scanner on Deno's own file API (node:fs would start Deno's Node
// layer; adapters/shared/fs-routes.ts is Node's and Bun's). Importing this module installs the
// scanner that `fileRoutes(app, './routes')` uses; Deno Deploy uses a manifest instead.
import { type ListedFile, type RouteLoader, setDirectoryLoader } from '../../src/fs-routes/loader.ts';
import type { RouteModule } from '../../src/fs-routes/table.ts';
import { dirUrl, urlPath } from './fs-url.ts';

// The few Deno APIs used here, declared so the file type-checks without Deno's lib.
interface DirEntry {
  name: string;
  isFile: boolean;
  isDirectory: boolean;
  isSymlink: boolean;
}
interface FileInfo {
  isFile: boolean;
  isDirectory: boolean;
  mtime: Date | null;
  size: number;
  ino: number | null;
}
declare const Deno: {
  readDir(path: URL): AsyncIterable<DirEntry>;
  stat(path: URL): Promise<FileInfo>;
  watchFs(path: string, options: { recursive: boolean }): AsyncIterable<unknown> & { close(): void };
};

/** Limits on what a scan walks, as on Node: a mistaken directory (`/`) must not hang startup. */
const MAX_FILES = 10_000;
const MAX_DEPTH = 32;

/** Absolute path of a routes directory: a file URL, an absolute path, or a path relative to the working directory. */
export function routesPath(dir: string | URL): string {
  return urlPath(dirUrl(dir)).replace(/[\\/]$/, '');
}

const child = (dir: URL, name: string, isDir: boolean) => new URL(`${encodeURIComponent(name)}${isDir ? '/' : ''}`, dir);

/** Every file under `root`, relative and `/`-separated, skipping dot-directories and node_modules. */
export async function listFiles(root: string | URL): Promise<ListedFile[]> {
  const top = dirUrl(root);
  const out: { file: string; url: URL }[] = [];
  const walk = async (dir: URL, rel: string, depth: number): Promise<void> => {
    if (depth > MAX_DEPTH) throw new Error(`${urlPath(dir)}: routes nested deeper than ${MAX_DEPTH} directories`);
    const entries: DirEntry[] = [];
    for await (const e of Deno.readDir(dir)) entries.push(e);
    entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    for (const entry of entries) {
      if (entry.name.startsWith('.') || entry.name === 'node_modules') continue;
      const name = rel === '' ? entry.name : `${rel}/${entry.name}`;
      // Follow symlinks the way import() would.
      const info = entry.isSymlink ? await Deno.stat(child(dir, entry.name, false)).catch(() => null) : null;
      if (entry.isDirectory || info?.isDirectory) {
        await walk(child(dir, entry.name, true), name, depth + 1);
      } else if (entry.isFile || info?.isFile) {
        if (out.length >= MAX_FILES) throw new Error(`${urlPath(top)}: more than ${MAX_FILES} files under the routes directory`);
        out.push({ file: name, url: child(dir, entry.name, false) });
      }
    }
  };
  await walk(top, '', 0);
  // Stamps in parallel: a file that vanished since the walk is simply gone.
  const stamped = await Promise.all(
    out.map(async (f) => {
      const s = await Deno.stat(f.url).catch(() => null);
      return s && { file: f.file, stamp: `${s.mtime?.getTime()}:${s.size}:${s.ino}` };
    }),
  );
  return stamped.filter((f): f is ListedFile => f !== null);
}

/**
 * A RouteLoader over a directory. A re-import appends `?v=N`: Deno keys ES modules by URL, so that
 * gives a fresh instance of the file as it is now. Modules the route file imports stay cached.
 *
 * @example
 * const loader = scanRoutes(new URL('./routes/', import.meta.url));
 * console.log(await loader.list());
 */
export function scanRoutes(dir: string | URL): RouteLoader {
  const top = dirUrl(dir);
  const root = routesPath(dir);
  return {
    root,
    list: () => listFiles(top),
    async load(file: string, version: number): Promise<RouteModule> {
      const url = new URL(file.split('/').map(encodeURIComponent).join('/'), top).href;
      return (await import(version > 0 ? `${url}?v=${version}` : url)) as RouteModule;
    },
    watch(changed: () => void): () => void {
      let watcher: ReturnType<typeof Deno.watchFs> | null = Deno.watchFs(root, { recursive: true });
      // A vanished directory or a watcher failure must not crash a dev server; the last table keeps serving.
      (async () => {
        try {
          for await (const _ of watcher!) changed();
        } catch {
          changed();
        }
      })();
      return () => {
        try {
          watcher?.close();
        } catch {
          // already closed
        }
        watcher = null;
      };
    },
  };
}

setDirectoryLoader(scanRoutes);

// rove/fs-routes on Deno: the scanner above plus the runtime-neutral toolkit.
export * from '../../src/fs-routes/index.ts';
