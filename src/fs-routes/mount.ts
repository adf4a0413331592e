import type { App } from '../core/app.ts';
import { classifyRouteFile, FileRouteError } from './conventions.ts';
import { loaderForDirectory, type RouteLoader } from './loader.ts';
import { isRouteManifest, manifestEntries, type RouteManifest } from './manifest.ts';
import { buildRouteTable, checkRouteModule, type RouteModule, type RouteTable } from './table.ts';

export interface FileRoutesOptions {
  /** Where the routes directory is mounted (default `/`). */
  prefix?: string;
  /** Watch the directory and apply every change without a restart (default: the app's `dev` setting). */
  watch?: boolean;
  /** Stops watching when aborted. */
  signal?: AbortSignal;
  /** Also told about every module that failed to load during a reload (default: console.error, unless a `route:error` listener hears it). */
  onError?: (error: RouteLoadError) => void;
}

/** What `route:error` carries: the file that failed and why; `kept` says the last good version still serves. */
export interface RouteLoadError {
  file: string;
  error: unknown;
  kept: boolean;
}

type Host = App<any>;

/**
 * `fileRoutes(app, source)`. The table becomes a child app mounted on the host, so
 * precedence, middleware scoping, 405 and HEAD all work as for code routes;
 * a reload swaps the child in one step (`unmount(old, next)`).
 */
export function mountFileRoutes(
  host: Host,
  makeApp: () => Host,
  source: RouteManifest | RouteLoader | string | URL,
  options: FileRoutesOptions = {},
): Host | Promise<Host> {
  const prefix = options.prefix ?? '/';
  if (isRouteManifest(source)) {
    // Synchronous on purpose: a Workers or Deploy module can register its routes at load time, no top-level await.
    host.route(prefix, appFor(buildRouteTable(manifestEntries(source)), makeApp));
    return host;
  }
  let loader: RouteLoader;
  try {
    loader = typeof source === 'string' || source instanceof URL ? loaderForDirectory(source) : source;
  } catch (error) {
    return Promise.reject(error);
  }
  return new LiveRoutes(host, makeApp, loader, prefix, options).start().then(() => host);
}

/** Register a table on a fresh app: outer middleware first, then every route by method. */
function appFor(table: RouteTable, makeApp: () => Host): Host {
  const app = makeApp();
  for (const m of table.middleware) app.use(m.prefix, ...m.handlers);
  for (const r of table.routes) {
    for (const method of Object.keys(r.handlers)) {
      if (method === 'ALL') app.all(r.pattern, r.handlers[method]);
      else app.method(method, r.pattern, r.handlers[method]);
    }
  }
  return app;
}

interface Loaded {
  stamp: string;
  module: RouteModule;
}

/** A scanned routes directory, kept in step with the files when watching. */
class LiveRoutes {
  /** The last good module of every route file. */
  private loaded = new Map<string, Loaded>();
  /** Stamp of a file version that failed, so it is reported once, not on every later change. */
  private failed = new Map<string, string>();
  private imported = new Set<string>();
  private version = 0;
  private mounted: Host | null = null;
  private running: Promise<void> | null = null;
  private again = false;
  private timer: ReturnType<typeof setTimeout> | undefined;
  private stopWatching: (() => void) | undefined;

  constructor(
    private readonly host: Host,
    private readonly makeApp: () => Host,
    private readonly loader: RouteLoader,
    private readonly prefix: string,
    private readonly options: FileRoutesOptions,
  ) {}

  async start(): Promise<void> {
    // At startup a broken routes directory is a hard error: better no server than a half one.
    const errors = await this.sync(true);
    if (errors.length > 0) throw errors[0].error instanceof FileRouteError ? errors[0].error : named(errors[0]);
    const watch = this.options.watch ?? this.host.settings.dev;
    const signal = this.options.signal;
    if (!watch || signal?.aborted) return;
    if (!this.loader.watch) throw new Error(`${this.loader.root}: this route loader cannot watch for changes`);
    this.stopWatching = this.loader.watch(() => this.schedule());
    signal?.addEventListener('abort', () => this.stop(), { once: true });
  }

  private stop(): void {
    clearTimeout(this.timer);
    this.stopWatching?.();
    this.stopWatching = undefined;
  }

  /** Editors write a file in several steps: wait for the burst to settle, then sync once. */
  private schedule(): void {
    if (this.stopWatching === undefined) return;
    clearTimeout(this.timer);
    this.timer = setTimeout(() => void this.reload(), 25);
  }

  private reload(): Promise<void> {
    if (this.running) {
      this.again = true;
      return this.running;
    }
    this.running = (async () => {
      do {
        this.again = false;
        try {
          for (const e of await this.sync()) this.report(e);
        } catch (error) {
          this.report({ file: this.loader.root, error, kept: true });
        }
      } while (this.again && this.stopWatching !== undefined);
      this.running = null;
    })();
    return this.running;
  }

  /** Bring the mounted table in line with the directory. Returns what failed; what failed keeps its last good version. */
  private async sync(strict = false): Promise<RouteLoadError[]> {
    const errors: RouteLoadError[] = [];
    const next = new Map<string, Loaded>();
    const listed = new Set<string>();
    let changed = false;
    for (const { file, stamp } of await this.loader.list()) {
      listed.add(file);
      let kind: ReturnType<typeof classifyRouteFile>;
      try {
        kind = classifyRouteFile(file);
      } catch (error) {
        errors.push({ file, error, kept: false });
        continue;
      }
      if (kind === null) continue;
      const prev = this.loaded.get(file);
      if (prev !== undefined && (prev.stamp === stamp || this.failed.get(file) === stamp)) {
        next.set(file, prev);
        continue;
      }
      if (prev === undefined && this.failed.get(file) === stamp) continue;
      // Mark before importing: a module that failed to evaluate stays cached in its failed state.
      const version = this.imported.has(file) ? ++this.version : 0;
      this.imported.add(file);
      try {
        const module = await this.loader.load(file, version);
        checkRouteModule(file, module);
        next.set(file, { stamp, module });
        this.failed.delete(file);
        changed = true;
      } catch (error) {
        this.failed.set(file, stamp);
        errors.push({ file, error, kept: prev !== undefined });
        if (prev !== undefined) next.set(file, prev);
      }
    }
    for (const file of this.loaded.keys()) if (!next.has(file)) changed = true;
    for (const file of this.failed.keys()) if (!listed.has(file)) this.failed.delete(file);
    if ((!changed && this.mounted !== null) || (strict && errors.length > 0)) return errors;
    let table: RouteTable;
    try {
      table = buildRouteTable([...next].map(([file, l]) => ({ file, module: l.module })));
    } catch (error) {
      // A new file that clashes with another: keep serving the previous table until that is fixed.
      const files = error instanceof FileRouteError ? error.files.join(', ') : this.loader.root;
      errors.push({ file: files, error, kept: this.mounted !== null });
      this.loaded = next;
      return errors;
    }
    this.loaded = next;
    const app = appFor(table, this.makeApp);
    if (this.mounted === null) this.host.route(this.prefix, app);
    else this.host.unmount(this.mounted, app);
    this.mounted = app;
    return errors;
  }

  private report(e: RouteLoadError): void {
    // The one place file routes emit `route:error`. With nobody told, a dev would never see a broken edit: log it.
    const heard = this.host.events?.has('route:error') === true;
    emitRouteError(this.host, e);
    if (this.options.onError) this.options.onError(e);
    else if (!heard) logRouteError(e);
  }
}

function emitRouteError(host: Host, e: RouteLoadError): void {
  const events = host.events;
  if (events === undefined || !events.has('route:error')) return;
  let route: string | undefined;
  try {
    const kind = classifyRouteFile(e.file);
    route = kind === null ? undefined : kind.kind === 'route' ? kind.pattern : kind.prefix;
  } catch {
    route = undefined;
  }
  events.emit('route:error', route === undefined ? { file: e.file, error: e.error } : { file: e.file, route, error: e.error });
}

function logRouteError(e: RouteLoadError): void {
  console.error(`route:error ${e.file}: ${messageOf(e.error)}${e.kept ? ' (still serving the last good version)' : ''}`);
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

function named(e: RouteLoadError): FileRouteError {
  return new FileRouteError(e.file, messageOf(e.error), { cause: e.error });
}
