import type { RouteModule } from './table.ts';

/** A file under the routes directory, and a stamp that changes whenever its content may have. */
export interface ListedFile {
  /** Relative to the routes directory, `/`-separated. */
  file: string;
  stamp: string;
}

/**
 * How the core reaches a routes directory. The core never touches a file
 * system: the scanners in adapters/shared/fs-routes.ts (Node, Bun) and adapters/deno/fs-routes.ts implement
 * this, and a test may implement it in memory.
 */
export interface RouteLoader {
  /** Shown in error messages: where the routes come from. */
  readonly root: string;
  /** Every file under the directory (the core decides which are routes). */
  list(): Promise<ListedFile[]>;
  /**
   * Import a module. `version` 0 is the first import; a higher one must give
   * a fresh instance of the file as it is now (hot reload), whatever the
   * runtime's module cache holds.
   */
  load(file: string, version: number): Promise<RouteModule>;
  /** Dev mode: call `changed` (possibly often) when anything under the directory changes. Returns a stop function. */
  watch?(changed: () => void): () => void;
}

let directoryLoader: ((dir: string | URL) => RouteLoader) | undefined;

/**
 * Installed by adapters/shared/fs-routes.ts (adapters/deno/fs-routes.ts on Deno) when it is imported (`import 'rove/fs-routes'`),
 * so that `fileRoutes(app, './routes')` can scan on Node, Deno and Bun while the core
 * stays free of file-system code. The edge has no such adapter: it uses a manifest.
 */
export function setDirectoryLoader(factory: (dir: string | URL) => RouteLoader): void {
  directoryLoader = factory;
}

export function loaderForDirectory(dir: string | URL): RouteLoader {
  if (directoryLoader === undefined) {
    throw new Error(
      `fileRoutes(app, ${JSON.stringify(String(dir))}) needs the file-system scanner: add \`import 'rove/fs-routes'\` (Node, Deno, Bun). ` +
        'On Workers and Deno Deploy there is no file system: run `npm run build:routes` and pass the manifest it writes to fileRoutes(app, manifest).',
    );
  }
  return directoryLoader(dir);
}
