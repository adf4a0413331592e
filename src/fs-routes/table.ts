import type { Handler } from '../core/compose.ts';
import { classifyRouteFile, FileRouteError, type RouteFile } from './conventions.ts';

/** A route module as imported: its namespace object. */
export type RouteModule = Readonly<Record<string, unknown>>;

/** One file of a routes directory with its module, from the scanner or from a manifest. */
export interface RouteModuleEntry {
  file: string;
  module: RouteModule;
}

export interface FileRoute {
  file: string;
  pattern: string;
  /** Handlers by method; `ALL` holds the `default` export. */
  handlers: Record<string, Handler>;
}

export interface FileMiddleware {
  file: string;
  /** Path prefix: `/` for the routes root. */
  prefix: string;
  handlers: Handler[];
}

/** The routes and middleware of a routes directory, ready to register. Outer middleware comes first. */
export interface RouteTable {
  routes: FileRoute[];
  middleware: FileMiddleware[];
}

/** The `default` export of a route module answers every method the module doesn't name. */
const ANY = 'ALL';
const METHOD_NAME = /^[A-Z][A-Z-]*$/;

/**
 * Which files of a listing are routes or middleware, checked against each
 * other: two files for one route is an error naming both. Needs no modules,
 * so the manifest writer runs the same checks at build time.
 */
export function planRoutes(files: Iterable<string>): RouteFile[] {
  const planned: RouteFile[] = [];
  const byShape = new Map<string, string>();
  for (const file of [...files].sort()) {
    const found = classifyRouteFile(file);
    if (found === null) continue;
    const key = `${found.kind} ${found.shape}`;
    const other = byShape.get(key);
    if (other !== undefined) {
      const what = found.kind === 'route' ? `the route ${found.pattern}` : `middleware for ${found.prefix}`;
      throw new FileRouteError([other, file], `both files define ${what}`);
    }
    byShape.set(key, file);
    planned.push(found);
  }
  return planned;
}

/** The handlers a route module exports, by method. Throws naming the file when it exports none or a non-function. */
export function routeHandlers(file: string, module: RouteModule): Record<string, Handler> {
  const handlers: Record<string, Handler> = {};
  const other: string[] = [];
  for (const name of Object.keys(module)) {
    const value = module[name];
    if (typeof value !== 'function') throw new FileRouteError(file, `the export "${name}" is not a function (a route module exports handlers)`);
    if (name === 'default') handlers[ANY] = value as Handler;
    else if (METHOD_NAME.test(name)) handlers[name] = value as Handler;
    else other.push(name);
  }
  if (Object.keys(handlers).length === 0) {
    const found = other.length > 0 ? `; it exports ${other.join(', ')}` : '';
    throw new FileRouteError(file, `exports no handler: export a function named by method (GET, POST, …) or a default one${found}`);
  }
  return handlers;
}

/** A `_middleware` module's default export: one middleware or an array of them, run in order. */
export function middlewareHandlers(file: string, module: RouteModule): Handler[] {
  for (const name of Object.keys(module)) {
    if (name !== 'default' && typeof module[name] !== 'function') throw new FileRouteError(file, `the export "${name}" is not a function`);
  }
  const value = module.default;
  const list = Array.isArray(value) ? value : [value];
  if (value === undefined || list.length === 0) throw new FileRouteError(file, 'exports no middleware: export default a function, or an array of them');
  list.forEach((fn, i) => {
    if (typeof fn !== 'function') throw new FileRouteError(file, `the default export${Array.isArray(value) ? `[${i}]` : ''} is not a function`);
  });
  return list as Handler[];
}

/** Checks one module against what its file name says it is (a route or middleware). Throws naming the file. */
export function checkRouteModule(file: string, module: RouteModule): void {
  const kind = classifyRouteFile(file);
  if (kind === null) return;
  if (kind.kind === 'route') routeHandlers(file, module);
  else middlewareHandlers(file, module);
}

/**
 * The route table of a set of files and their modules. The scanner and the
 * manifest both end here, which is what makes their tables equal. Files that
 * are not routes are skipped; a bad name, a conflict or a bad module throws
 * a FileRouteError naming the file(s).
 */
export function buildRouteTable(entries: Iterable<RouteModuleEntry>): RouteTable {
  const modules = new Map<string, RouteModule>();
  for (const e of entries) modules.set(e.file, e.module);
  const routes: FileRoute[] = [];
  const middleware: (FileMiddleware & { depth: number })[] = [];
  for (const planned of planRoutes(modules.keys())) {
    const module = modules.get(planned.file)!;
    if (planned.kind === 'route') {
      routes.push({ file: planned.file, pattern: planned.pattern, handlers: routeHandlers(planned.file, module) });
    } else {
      const depth = planned.prefix === '/' ? 0 : planned.prefix.split('/').length - 1;
      middleware.push({ file: planned.file, prefix: planned.prefix, handlers: middlewareHandlers(planned.file, module), depth });
    }
  }
  // Middleware runs in registration order: outer directories first, so `_middleware` at the
  // root wraps the one in `users/`. The sort is stable, so same-depth files stay alphabetical.
  middleware.sort((a, b) => a.depth - b.depth);
  return { routes, middleware: middleware.map(({ depth: _depth, ...m }) => m) };
}

/** A plain-data view of a table: what tests and tooling compare (scan vs manifest). */
export function describeRouteTable(table: RouteTable): {
  routes: { method: string; pattern: string; file: string }[];
  middleware: { prefix: string; file: string; layers: number }[];
} {
  const routes = table.routes.flatMap((r) =>
    Object.keys(r.handlers)
      .sort()
      .map((method) => ({ method, pattern: r.pattern, file: r.file })),
  );
  const middleware = table.middleware.map((m) => ({ prefix: m.prefix, file: m.file, layers: m.handlers.length }));
  return { routes, middleware };
}
