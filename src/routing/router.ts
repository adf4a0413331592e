/**
 * The route table.
 *
 * Precedence, per segment from left to right: a static segment beats a
 * constrained param (`:id{[0-9]+}`), which beats a plain param (`:id`), which
 * beats a trailing wildcard (`*`). Registration order only breaks ties between
 * two constrained params at the same position. When the most specific branch
 * has no route for the request method, matching backtracks to the next one, so
 * `POST /users/new` never hides `GET /users/:id`.
 *
 * Paths are matched segment by segment on decoded text: a segment is split on
 * a raw `/` first, then percent-decoded. The app refuses `%2F` and empty inner
 * segments before matching (see path.ts), so a decoded segment never holds `/`.
 */
import { decodeSegment } from './path.ts';
import { parseRoute, RouteError, routeVariants, type Segment } from './pattern.ts';

export { parseRoute, RouteError, routeVariants, type Segment } from './pattern.ts';

export type Params = Record<string, string>;

export interface Match<T> {
  value: T;
  params: Params;
  /** Set when a param held malformed percent-encoding; params then stay raw. */
  malformed?: true;
  /** The first param whose value is longer than `match()`'s limit. */
  tooLong?: string;
}

/** Methods in the order `allowed()` lists them. */
export const METHODS = ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'] as const;

/** The method key a route registered with `all()` is stored under. */
export const ANY = 'ALL';

interface Entry<T> {
  value: T;
  /** Param names, in capture order; `*` for an unnamed wildcard. */
  names: string[];
}

type Methods<T> = Map<string, Entry<T>>;

/** One trie node: the routes that end here and the branches below, by segment kind. */
class Node<T> {
  #statics: Map<string, Node<T>> | null = null;
  #constrained: { source: string; re: RegExp; node: Node<T> }[] | null = null;
  #param: Node<T> | null = null;
  #wildcard: Methods<T> | null = null;
  #routes: Methods<T> | null = null;

  /** Find (or, with `create`, make) the method map a variant's routes live in. */
  place(segments: Segment[], names: string[], create: boolean): Methods<T> | null {
    let node: Node<T> = this;
    for (const seg of segments) {
      if (seg.kind === 'wildcard') {
        names.push(seg.name);
        if (create) node.#wildcard ??= new Map();
        return node.#wildcard;
      }
      let next: Node<T> | undefined;
      if (seg.kind === 'static') {
        next = node.#statics?.get(seg.text);
        if (!next && create) (node.#statics ??= new Map()).set(seg.text, (next = new Node()));
      } else {
        names.push(seg.name);
        if (seg.re) {
          let c = node.#constrained?.find((x) => x.source === seg.source);
          if (!c && create) (node.#constrained ??= []).push((c = { source: seg.source, re: seg.re, node: new Node() }));
          next = c?.node;
        } else {
          next = node.#param ?? (create ? (node.#param = new Node()) : undefined);
        }
      }
      if (!next) return null;
      node = next;
    }
    if (create) node.#routes ??= new Map();
    return node.#routes;
  }

  /** The route under this node for the path from `start` on (past its end: this node's own routes). */
  walk(path: string, start: number, method: string, values: string[], encoded: boolean): Entry<T> | undefined {
    if (start > path.length) return this.#routes === null ? undefined : pick(this.#routes, method);
    const slash = path.indexOf('/', start);
    const end = slash === -1 ? path.length : slash;
    const raw = path.slice(start, end);
    const text = encoded ? decodeSegment(raw) : raw;
    let found: Entry<T> | undefined;

    const next = text === undefined ? undefined : this.#statics?.get(text);
    if (next !== undefined && (found = next.walk(path, end + 1, method, values, encoded))) return found;
    // A constraint decides for itself whether an empty segment matches (`:name{.*}` on `/files/`).
    if (this.#constrained !== null && text !== undefined) {
      for (const c of this.#constrained) {
        if (!c.re.test(text)) continue;
        values.push(raw);
        if ((found = c.node.walk(path, end + 1, method, values, encoded))) return found;
        values.pop();
      }
    }
    if (this.#param !== null && raw.length > 0) {
      values.push(raw);
      if ((found = this.#param.walk(path, end + 1, method, values, encoded))) return found;
      values.pop();
    }
    if (this.#wildcard !== null && (found = pick(this.#wildcard, method))) values.push(path.slice(start));
    return found;
  }
}

/** The params of a route without any: frozen and prototype-free. */
export const EMPTY_PARAMS: Params = Object.freeze(Object.create(null)) as Params;

export class Router<T> {
  #root = new Node<T>();
  /** Fully static paths, keyed by the raw path, for a lookup without a walk. */
  #statics = new Map<string, Methods<T>>();
  /**
   * Per static path, the methods known to have no route there (no static one, and no param or
   * wildcard route the walk would find): an OPTIONS preflight or a 405 to a known path is then
   * one set lookup, not a normalisation and a walk. Filled on first miss; bounded per path.
   */
  #unrouted = new Map<string, Set<string>>();
  /** Every method a route was registered for, for `allowed()`. */
  #methods = new Set<string>();

  /**
   * Register a route. `value` may depend on the concrete variant (an optional
   * param present or absent), so a caller can give each variant its own value.
   * Either every variant is registered, or none is (a conflict throws first). `variants`: the
   * pattern's `routeVariants(parseRoute(path))`, when the caller has parsed it already.
   */
  add(method: string, path: string, value: T | ((variant: Segment[]) => T), variants: Segment[][] = routeVariants(parseRoute(path))): void {
    const key = method.toUpperCase();
    if (variants.some((v) => this.#root.place(v, [], false)?.has(key))) throw new RouteError(`Route registered twice: ${key} ${path}`);
    for (const segments of variants) {
      const names: string[] = [];
      const entry: Entry<T> = { value: typeof value === 'function' ? (value as (v: Segment[]) => T)(segments) : value, names };
      this.#root.place(segments, names, true)!.set(key, entry);
      // Only paths a client sends as they are: any other goes through the walk, which decodes.
      if (segments.every((s) => s.kind === 'static' && PLAIN.test(s.text))) {
        const raw = `/${segments.map((s) => (s as { text: string }).text).join('/')}`;
        let m = this.#statics.get(raw);
        if (!m) this.#statics.set(raw, (m = new Map()));
        m.set(key, entry);
      }
    }
    this.#methods.add(key);
  }

  /** A fully static route for the raw path, without a walk or any decoding; undefined when there is none. */
  exact(method: string, path: string): T | undefined {
    const hit = this.#statics.get(path);
    return hit === undefined ? undefined : pick(hit, method)?.value;
  }

  /**
   * Whether the raw path is a static route's path that no route answers for `method`: the answer
   * `match()` gives is then null, so a caller may skip normalising and matching. False when it is
   * not known (any other path, TRACE and TRACK, which the app refuses before matching).
   */
  unrouted(method: string, path: string): boolean {
    const known = this.#unrouted.get(path);
    if (known?.has(method)) return true;
    const hit = this.#statics.get(path);
    if (hit === undefined || method === 'TRACE' || method === 'TRACK') return false;
    // The same answer as the walk: asked once per method, remembered for a bounded few.
    if (this.match(method, path) !== null) return false;
    let set = known;
    if (set === undefined) this.#unrouted.set(path, (set = new Set()));
    if (set.size < MAX_UNROUTED) set.add(method);
    return true;
  }

  /**
   * The route for a request; params longer than `maxParamLength` are named in `tooLong`.
   * Methods match case-insensitively: a lower-case method is retried upper-case.
   */
  match(method: string, path: string, maxParamLength = Infinity): Match<T> | null {
    const found = this.#find(method, path, maxParamLength);
    if (found !== null) return found;
    const upper = method.toUpperCase();
    return upper === method ? null : this.#find(upper, path, maxParamLength);
  }

  #find(method: string, path: string, maxParamLength: number): Match<T> | null {
    const hit = this.#statics.get(path);
    if (hit !== undefined) {
      const entry = pick(hit, method);
      if (entry !== undefined) return { value: entry.value, params: EMPTY_PARAMS };
    }
    if (path.charCodeAt(0) !== 47 /* / */) return null;
    const values: string[] = [];
    const entry = this.#root.walk(path, 1, method, values, path.includes('%'));
    if (entry === undefined) return null;
    if (entry.names.length === 0) return { value: entry.value, params: EMPTY_PARAMS };
    // Checked here, over the names array, not by the caller looping over params: such a loop
    // put V8 in a deopt loop once (docs/design-notes.md; `npm run bench:deopts` guards it).
    const params: Params = {};
    let malformed: true | undefined;
    let tooLong: string | undefined;
    for (let i = 0; i < entry.names.length; i++) {
      const raw = values[i];
      const decoded = decodeSegment(raw);
      if (decoded === undefined) malformed = true;
      const value = decoded ?? raw;
      if (value.length > maxParamLength && tooLong === undefined) tooLong = entry.names[i];
      params[entry.names[i]] = value;
    }
    return malformed ? { value: entry.value, params, malformed } : { value: entry.value, params, tooLong };
  }

  /** Methods that have a route for this path, in a stable order (HEAD with GET; every method with `all()`). */
  allowed(path: string): string[] {
    const extra = [...this.#methods].filter((m) => m !== ANY && !(METHODS as readonly string[]).includes(m)).sort();
    return [...METHODS, ...extra].filter((m) => this.#find(m, path, Infinity) !== null);
  }
}

/** The route for a method; HEAD falls back to GET, and every method to `all()`. */
function pick<T>(methods: Methods<T>, method: string): Entry<T> | undefined {
  return methods.get(method) ?? (method === 'HEAD' ? methods.get('GET') : undefined) ?? methods.get(ANY);
}

/** Methods remembered per static path as having no route there (clients may send any token). */
const MAX_UNROUTED = 8;

/** A static segment a client sends unescaped. */
const PLAIN = /^[\w\-.~!$&'()*+,;=:@]*$/;
