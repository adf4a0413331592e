// The file-system side of file routes, for Node and Bun (node:fs). Deno has its own
// (adapters/deno/fs-routes.ts: a node: module would start its Node layer). Importing this
// module installs the scanner that `fileRoutes(app, './routes')` uses; Workers and Deno
// Deploy use a manifest instead.
import { type FSWatcher, watch as watchFs } from 'node:fs';
import { readdir, stat } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { join, relative, sep } from 'node:path';
import { pathToFileURL } from 'node:url';
import { type ListedFile, type RouteLoader, setDirectoryLoader } from '../../src/fs-routes/loader.ts';
import type { RouteModule } from '../../src/fs-routes/table.ts';
import { toFsPath } from './fs-path.ts';

/** Limits on what a scan walks: a routes directory is small; a mistaken one (`/`) must not hang startup. */
const MAX_FILES = 10_000;
const MAX_DEPTH = 32;

/** Absolute path of a routes directory: a file URL, an absolute path, or a path relative to the working directory. */
export function routesPath(dir: string | URL): string {
  return toFsPath(dir);
}

/** Every file under `root`, relative and `/`-separated, skipping dot-directories and node_modules. */
export async function listFiles(root: string): Promise<ListedFile[]> {
  const out: ListedFile[] = [];
  const walk = async (dir: string, depth: number): Promise<void> => {
    if (depth > MAX_DEPTH) throw new Error(`${dir}: routes nested deeper than ${MAX_DEPTH} directories`);
    const entries = await readdir(dir, { withFileTypes: true });
    entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    for (const entry of entries) {
      if (entry.name.startsWith('.') || entry.name === 'node_modules') continue;
      const full = join(dir, entry.name);
      // Follow symlinks the way import() would.
      const info = entry.isSymbolicLink() ? await stat(full).catch(() => null) : null;
      if (entry.isDirectory() || info?.isDirectory()) {
        await walk(full, depth + 1);
      } else if (entry.isFile() || info?.isFile()) {
        if (out.length >= MAX_FILES) throw new Error(`${root}: more than ${MAX_FILES} files under the routes directory`);
        out.push({ file: relative(root, full).split(sep).join('/'), stamp: '' });
      }
    }
  };
  await walk(root, 0);
  // Stamps in parallel: a file that vanished since the walk is simply gone.
  const stamped = await Promise.all(
    out.map(async (f) => {
      const s = await stat(join(root, f.file)).catch(() => null);
      return s && { file: f.file, stamp: `${s.mtimeMs}:${s.size}:${s.ino}` };
    }),
  );
  return stamped.filter((f): f is ListedFile => f !== null);
}

// Bun keys its module cache by path and ignores a query string; deleting the entry is its way to re-import.
const requireCache = (() => {
  try {
    return createRequire(import.meta.url).cache as Record<string, unknown> | undefined;
  } catch {
    return undefined;
  }
})();

/**
 * A RouteLoader over a directory. A re-import appends `?v=N`: Node (with tsx)
 * and Deno key ES modules by URL, so that gives a fresh instance of the file as
 * it is now. Modules the route file imports stay cached (edit a route, not its
 * helpers, for a hot reload; restart for the rest).
 */
export function scanRoutes(dir: string | URL): RouteLoader {
  const root = routesPath(dir);
  return {
    root,
    list: () => listFiles(root),
    async load(file: string, version: number): Promise<RouteModule> {
      const path = join(root, ...file.split('/'));
      if (version > 0 && requireCache) delete requireCache[path];
      const url = pathToFileURL(path).href;
      return (await import(version > 0 ? `${url}?v=${version}` : url)) as RouteModule;
    },
    watch(changed: () => void): () => void {
      let watcher: FSWatcher | null = watchFs(root, { recursive: true }, () => changed());
      // A vanished directory or a watcher failure must not crash a dev server; the last table keeps serving.
      watcher.on('error', () => changed());
      (watcher as { unref?: () => void }).unref?.();
      return () => {
        watcher?.close();
        watcher = null;
      };
    },
  };
}

setDirectoryLoader(scanRoutes);

// rove/fs-routes on Node, Deno and Bun: the scanner above plus the runtime-neutral toolkit.
export * from '../../src/fs-routes/index.ts';
