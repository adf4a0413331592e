import { COMPILED_FORMAT, COMPILED_VERSION, type CompiledViews, type ViewAst } from './ast.ts';
import { type CompiledView, type CompileOptions, compileView } from './compile.ts';
import { asViewError, badName, checkedName, notFound, renderFailure } from './engine-errors.ts';
import { ViewError } from './errors.ts';
import { type FilterDef, filterTable, type ViewFilter } from './filters.ts';
import { type Entry, type From, linkGraph, linkGraphAsync } from './graph.ts';
import { resolveLimits, type ViewLimits } from './limits.ts';
import { candidates, normalizeName } from './names.ts';
import { parseView } from './parse.ts';
import { VIEW_EVENT_KINDS, type ViewEvent, type ViewEventBus, type ViewRenderer } from './renderer.ts';
import { State } from './runtime.ts';
import { streamText } from './stream.ts';

export type { ViewEvent, ViewRenderer } from './renderer.ts';

/** Where view sources come from when they are not in memory (the filesystem loader implements it). */
export interface ViewSource {
  /** The source of the view with this normalised name (e.g. `users/card.dve`), or undefined when there is none. */
  read(name: string): Promise<string | undefined>;
  /** Every view name, for preload(). */
  list?(): Promise<string[]>;
}

export interface ViewsOptions {
  /** In-memory views by name: `{ 'hello.dve': 'Hello {{ name }}.' }`. */
  templates?: Record<string, string>;
  /** The module written by `npm run build:views`: pre-parsed views, no files read at run time. */
  compiled?: CompiledViews;
  /** A views directory: a path, a `file:` URL or its string; needs the filesystem loader (`rove/views` on Node, Deno and Bun). */
  dir?: string | URL;
  /** Any other source of view text. */
  reader?: ViewSource;
  /** Re-read sources on every render, so an edited file shows up without a restart. */
  dev?: boolean;
  /** The extension that may be left out of names. Default `.dve`. */
  ext?: string;
  limits?: Partial<ViewLimits>;
  /**
   * Filters the views may apply (`{{ price | currency('EUR') }}`), besides the built-in ones; a
   * name given here replaces a built-in. A view that names an unknown filter fails to compile.
   */
  filters?: Record<string, ViewFilter>;
  /** The locale of the `date` and `number` filters when a render's data names none (`locale`). Default: the runtime's. */
  locale?: string;
  /** Observability hook; costs nothing when absent. */
  onEvent?: (event: ViewEvent) => void;
}

export interface Views extends ViewRenderer {
  /**
   * Renders without a promise. Always works for in-memory and pre-compiled
   * views; with a file loader only for views already loaded by render() or
   * preload() (and never in dev mode).
   */
  renderSync(name: string, data?: unknown): string;
  /** The output at once when the view is already loaded (as after its first render), else undefined. */
  renderReady(name: string, data?: unknown): string | undefined;
  /** Loads and compiles views ahead of the first request (all known views when no names are given); reports the first error. */
  preload(names?: string[]): Promise<void>;
  /** Forgets every compiled view (the next render loads them again). */
  invalidate(): void;
  readonly limits: Readonly<ViewLimits>;
}

export function createViews(options: ViewsOptions = {}): Views {
  return new ViewEngine(options);
}

export class ViewEngine implements Views {
  readonly limits: Readonly<ViewLimits>;
  private readonly compileOptions: CompileOptions;
  private readonly ext: string;
  private readonly dev: boolean;
  private readonly reader: ViewSource | undefined;
  private readonly userOnEvent: ((event: ViewEvent) => void) | undefined;
  /** The user's `onEvent` and the app's event bus, combined; undefined while nobody listens. */
  private onEvent: ((event: ViewEvent) => void) | undefined;
  /** Normalised name -> source text or pre-parsed AST. */
  private readonly memory = new Map<string, string | ViewAst>();
  /** Resolved key -> compiled view. Entries are updated in place so links stay valid. */
  private readonly entries = new Map<string, Entry>();
  /** Name as asked -> key of an in-memory view. */
  private readonly locatedInMemory = new Map<string, string>();
  /** Name as asked -> key of a view the reader found (not kept in dev mode: files may appear or go). */
  private readonly located = new Map<string, string>();
  /** Name as asked -> view whose whole include graph is loaded and checked. */
  private readonly ready = new Map<string, Entry>();
  private readonly pending = new Map<string, Promise<Entry>>();

  /** `filters`: the table the views compile against, when not the one `options.filters` makes (build:views). */
  constructor(options: ViewsOptions, filters: ReadonlyMap<string, FilterDef> = filterTable(options.filters)) {
    this.limits = Object.freeze(resolveLimits(options.limits));
    this.compileOptions = { filters, locale: options.locale };
    this.ext = options.ext ?? options.compiled?.ext ?? '.dve';
    this.dev = options.dev === true;
    this.userOnEvent = this.onEvent = options.onEvent;
    this.reader = options.reader;
    if (options.dir !== undefined && options.reader === undefined) {
      throw new TypeError(
        "views: createViews({ dir }) needs the filesystem loader: import it from 'rove/views' (Node, Deno and Bun have it). " +
          'On Cloudflare Workers and Deno Deploy, pass `compiled` (the module written by `npm run build:views`).',
      );
    }
    if (options.compiled !== undefined) {
      const c = options.compiled;
      if (c === null || typeof c !== 'object' || c.format !== COMPILED_FORMAT || c.version !== COMPILED_VERSION || typeof c.views !== 'object') {
        throw new TypeError(`views: \`compiled\` is not a ${COMPILED_FORMAT} v${COMPILED_VERSION} module; rebuild it with npm run build:views`);
      }
      for (const [name, ast] of Object.entries(c.views)) this.memory.set(checkedName(name), ast as ViewAst);
    }
    if (options.templates !== undefined) {
      for (const [name, text] of Object.entries(options.templates)) {
        if (typeof text !== 'string') throw new TypeError(`views: template ${JSON.stringify(name)} is not a string`);
        this.memory.set(checkedName(name), text);
      }
    }
  }
  /** The app connects its event bus here while someone listens for view events (undefined to stop). */
  observe(sink: ((event: ViewEvent) => void) | undefined): void {
    const user = this.userOnEvent;
    this.onEvent =
      user && sink
        ? (event) => {
            user(event);
            sink(event);
          }
        : (user ?? sink);
  }

  /** The app's bus: view events are timed and forwarded only while someone listens for them. */
  attach(events: ViewEventBus): void {
    const forward = (event: ViewEvent) => events.emit(event.kind, event.metadata);
    events.watch(() => this.observe(VIEW_EVENT_KINDS.some((k) => events.has(k)) ? forward : undefined));
  }

  render(name: string, data?: unknown): Promise<string> {
    try {
      const now = this.renderReady(name, data);
      if (now !== undefined) return Promise.resolve(now);
    } catch (err) {
      return Promise.reject(err);
    }
    return this.load(name).then((entry) => this.run(entry, data, false));
  }

  renderReady(name: string, data?: unknown): string | undefined {
    const e = this.ready.get(name);
    return e === undefined ? undefined : this.run(e, data, false);
  }

  renderSync(name: string, data?: unknown): string {
    let e = this.ready.get(name) ?? this.loadedAs(name);
    if (e === undefined) {
      if (this.reader !== undefined) {
        throw this.report(
          new ViewError({
            kind: 'not-found',
            view: name,
            reason: 'not loaded yet: with a file loader, renderSync() needs render() or preload() first, and does not work in dev mode',
          }),
        );
      }
      e = this.loadMemory(name);
    }
    return this.run(e, data, false);
  }

  /** A view already loaded with its whole graph under another spelling of its name (e.g. by preload). */
  private loadedAs(name: string): Entry | undefined {
    if (this.dev && this.reader !== undefined) return undefined;
    const n = normalizeName(name);
    if ('reason' in n) return undefined;
    for (const key of candidates(n.name, this.ext)) {
      const e = this.entries.get(key);
      if (e?.linked) {
        this.ready.set(name, e);
        return e;
      }
    }
    return undefined;
  }

  stream(name: string, data?: unknown): ReadableStream<Uint8Array> {
    const e = this.ready.get(name);
    return streamText(() => (e !== undefined ? this.run(e, data, true) : this.load(name).then((entry) => this.run(entry, data, true))));
  }

  async preload(names?: string[]): Promise<void> {
    let list = names;
    if (list === undefined) {
      const all = new Set(this.memory.keys());
      if (this.reader?.list !== undefined) for (const n of await this.reader.list()) all.add(n);
      list = [...all].filter((n) => this.ext === '' || n.endsWith(this.ext));
    }
    for (const name of list) await this.load(name);
  }

  /** Loads and links a view held in memory without rendering it (used by precompile). */
  check(name: string): void {
    this.loadMemory(name);
  }

  invalidate(): void {
    this.entries.clear();
    this.located.clear();
    this.locatedInMemory.clear();
    this.ready.clear();
    this.pending.clear();
  }

  // ------------------------------------------------------------ rendering

  private run(e: Entry, data: unknown, stream: boolean): string {
    const onEvent = this.onEvent;
    const t0 = onEvent === undefined ? 0 : performance.now();
    const st = new State(data);
    let out: string;
    try {
      if (e.str !== null) {
        out = e.str(st);
      } else {
        e.run(st);
        out = st.out;
      }
      if (out.length > this.limits.outputSize) {
        throw new ViewError({ kind: 'limit', view: e.key, reason: `output exceeds limits.outputSize (${this.limits.outputSize} characters)` });
      }
    } catch (err) {
      throw this.report(renderFailure(err, e.key));
    }
    if (onEvent !== undefined) {
      onEvent({ kind: 'view:rendered', metadata: { view: e.key, ms: performance.now() - t0, size: out.length, stream } });
    }
    return out;
  }

  private report(err: ViewError): ViewError {
    if (this.onEvent !== undefined) {
      this.onEvent({
        kind: 'view:error',
        metadata: { view: err.view, errorKind: err.kind, line: err.line, column: err.column, message: err.message, error: err },
      });
    }
    return err;
  }

  // ------------------------------------------------------------ loading

  private load(name: string): Promise<Entry> {
    if (this.reader === undefined) {
      try {
        return Promise.resolve(this.loadMemory(name));
      } catch (err) {
        return Promise.reject(err);
      }
    }
    if (this.dev)
      return this.loadGraph(name).catch((err) => {
        throw this.report(asViewError(err, name));
      });
    let p = this.pending.get(name);
    if (p === undefined) {
      p = this.loadGraph(name).then(
        (entry) => {
          this.ready.set(name, entry);
          this.pending.delete(name);
          return entry;
        },
        (err) => {
          // Not cached: the next render tries again (the file may have been fixed).
          this.pending.delete(name);
          throw this.report(asViewError(err, name));
        },
      );
      this.pending.set(name, p);
    }
    return p;
  }

  /** Loads a view and everything it includes from memory, synchronously. */
  private loadMemory(name: string): Entry {
    try {
      const top = linkGraph(this.memoryEntry(name, null), (dep, from) => this.memoryEntry(dep, from));
      this.ready.set(name, top);
      return top;
    } catch (err) {
      throw this.report(asViewError(err, name));
    }
  }

  private memoryEntry(raw: string, from: From | null): Entry {
    const key = this.locateInMemory(raw, from);
    if (key === undefined) throw notFound(raw, from, this.ext);
    return this.entryFor(key, this.memory.get(key)!);
  }

  private locateInMemory(raw: string, from: From | null): string | undefined {
    let key = this.locatedInMemory.get(raw);
    if (key !== undefined) return key;
    const n = normalizeName(raw);
    if ('reason' in n) throw badName(raw, n.reason, from);
    for (const k of candidates(n.name, this.ext)) {
      if (this.memory.has(k)) {
        key = k;
        this.locatedInMemory.set(raw, k);
        break;
      }
    }
    return key;
  }

  /** Loads a view and everything it includes, from memory or the reader. */
  private async loadGraph(name: string): Promise<Entry> {
    return linkGraphAsync(await this.asyncEntry(name, null), (dep, from) => this.asyncEntry(dep, from));
  }

  private async asyncEntry(raw: string, from: From | null): Promise<Entry> {
    const inMemory = this.locateInMemory(raw, from);
    if (inMemory !== undefined) return this.entryFor(inMemory, this.memory.get(inMemory)!);
    if (!this.dev) {
      const key = this.located.get(raw);
      const known = key === undefined ? undefined : this.entries.get(key);
      if (known !== undefined) return known;
    }
    const n = normalizeName(raw);
    if ('reason' in n) throw badName(raw, n.reason, from);
    for (const key of candidates(n.name, this.ext)) {
      let text: string | undefined;
      try {
        text = await this.reader!.read(key);
      } catch (err) {
        throw new ViewError({ kind: 'render', view: key, reason: 'the view file could not be read', cause: err });
      }
      if (text === undefined) continue;
      if (!this.dev) this.located.set(raw, key);
      return this.entryFor(key, text);
    }
    throw notFound(raw, from, this.ext);
  }

  /** The compiled view for a key, compiling when it is new or its source changed. */
  private entryFor(key: string, source: string | ViewAst): Entry {
    const known = this.entries.get(key);
    if (known !== undefined && known.source === source) return known;
    const onEvent = this.onEvent;
    const t0 = onEvent === undefined ? 0 : performance.now();
    const compiled = this.compile(key, source);
    let entry: Entry;
    if (known !== undefined) {
      // In place, so that views linking to this one see the new version.
      known.source = source;
      known.compiled = compiled;
      known.run = compiled.run;
      known.str = compiled.str;
      known.linked = false;
      entry = known;
    } else {
      entry = { key, source, compiled, run: compiled.run, str: compiled.str, linked: false };
      this.entries.set(key, entry);
    }
    if (onEvent !== undefined) onEvent({ kind: 'view:compiled', metadata: { view: key, ms: performance.now() - t0 } });
    return entry;
  }

  private compile(key: string, source: string | ViewAst): CompiledView {
    const ast = typeof source === 'string' ? parseView(source, key, this.limits) : source;
    try {
      return compileView(ast, key, this.limits, this.compileOptions);
    } catch (err) {
      if (err instanceof ViewError) throw err;
      if (typeof source === 'string') throw err; // a bug in the engine, not in the view
      throw new ViewError({ kind: 'syntax', view: key, reason: 'malformed pre-compiled view; rebuild with npm run build:views', cause: err });
    }
  }
}
