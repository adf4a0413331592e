/**
 * The route table.
 *
 * Precedence, per segment from left to right: a static segment beats a
 * constrained param (`:id{[0-9]+}`), which beats a plain param (`:id`), which
 * beats a trailing wildcard (`*`). Registration order only breaks ties between
 * two constrained params at the same position. When the most specific branch
 * has no route for the request method, matching backtracks to the next one, so
 * `POST /users/new` never hides `GET /users/:id`.
 */

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

interface Constrained<T> {
  source: string;
  re: RegExp;
  node: Node<T>;
}

class Node<T> {
  statics: Map<string, Node<T>> | null = null;
  constrained: Constrained<T>[] | null = null;
  param: Node<T> | null = null;
  wildcard: Methods<T> | null = null;
  routes: Methods<T> | null = null;
}

const EMPTY_PARAMS: Params = Object.freeze(Object.create(null)) as Params;

type Segment =
  | { kind: 'static'; text: string }
  | { kind: 'param'; name: string; re: RegExp | null; source: string; optional: boolean }
  | { kind: 'wildcard'; name: string };

export class RouteError extends Error {}

function decode(text: string): string | undefined {
  if (text.indexOf('%') === -1) return text;
  try {
    return decodeURIComponent(text);
  } catch {
    return undefined;
  }
}

function parsePattern(path: string): Segment[] {
  if (path === '*' || path === '/*') return [{ kind: 'wildcard', name: '*' }];
  if (!path.startsWith('/')) throw new RouteError(`Route path must start with "/": ${path}`);
  const parts = splitPattern(path.slice(1));
  const segments: Segment[] = [];
  parts.forEach((part, i) => {
    const last = i === parts.length - 1;
    if (part === '*' || /^\*[A-Za-z_$][\w$]*$/.test(part)) {
      if (!last) throw new RouteError(`A wildcard must be the last segment: ${path}`);
      segments.push({ kind: 'wildcard', name: part === '*' ? '*' : part.slice(1) });
      return;
    }
    const m = /^:([A-Za-z_$][\w$]*)(?:\{(.+)\})?(\?)?$/.exec(part);
    if (m) {
      let re: RegExp | null = null;
      if (m[2] !== undefined) {
        try {
          re = new RegExp(`^(?:${m[2]})$`);
        } catch {
          throw new RouteError(`Invalid constraint in ${path}: ${m[2]}`);
        }
      }
      segments.push({ kind: 'param', name: m[1], re, source: m[2] ?? '', optional: m[3] === '?' });
      return;
    }
    if (part.includes(':') && part.startsWith(':')) throw new RouteError(`Invalid param segment in ${path}: ${part}`);
    const text = decode(part);
    if (text === undefined) throw new RouteError(`Malformed percent-encoding in route ${path}`);
    segments.push({ kind: 'static', text });
  });
  return segments;
}

/** Split on "/" except inside a `{...}` constraint, which may contain slashes. */
function splitPattern(body: string): string[] {
  const parts: string[] = [];
  let depth = 0;
  let start = 0;
  for (let i = 0; i < body.length; i++) {
    const ch = body[i];
    if (ch === '\\') i++;
    else if (ch === '{') depth++;
    else if (ch === '}') depth--;
    else if (ch === '/' && depth === 0) {
      parts.push(body.slice(start, i));
      start = i + 1;
    }
  }
  parts.push(body.slice(start));
  return parts;
}

/** Every concrete variant of a pattern: each optional param present or absent. */
function expandOptional(segments: Segment[]): Segment[][] {
  let variants: Segment[][] = [[]];
  for (const seg of segments) {
    if (seg.kind === 'param' && seg.optional) {
      variants = variants.flatMap((v) => [[...v, seg], v]);
    } else {
      variants = variants.map((v) => [...v, seg]);
    }
  }
  // "/a/:b?" without b is "/a", not "/a/": drop a variant that became empty
  // only if the original had at least one segment; "/" is the empty-text static.
  return variants.map((v) => (v.length === 0 ? [{ kind: 'static', text: '' } as Segment] : v));
}

function isStaticPath(segments: Segment[]): boolean {
  return segments.every((s) => s.kind === 'static');
}

export class Router<T> {
  private root = new Node<T>();
  /** Fully static paths, keyed by the raw path, for a lookup without a walk. */
  private statics = new Map<string, Methods<T>>();

  add(method: string, path: string, value: T): void {
    const key = method.toUpperCase();
    for (const segments of expandOptional(parsePattern(path))) {
      const names: string[] = [];
      let node = this.root;
      let methods: Methods<T> | null = null;
      for (const seg of segments) {
        if (seg.kind === 'static') {
          node.statics ??= new Map();
          let next = node.statics.get(seg.text);
          if (!next) node.statics.set(seg.text, (next = new Node()));
          node = next;
        } else if (seg.kind === 'param') {
          names.push(seg.name);
          if (seg.re) {
            node.constrained ??= [];
            let c = node.constrained.find((x) => x.source === seg.source);
            if (!c) node.constrained.push((c = { source: seg.source, re: seg.re, node: new Node() }));
            node = c.node;
          } else {
            node = node.param ??= new Node();
          }
        } else {
          names.push(seg.name);
          methods = node.wildcard ??= new Map();
        }
      }
      methods ??= node.routes ??= new Map();
      if (methods.has(key)) throw new RouteError(`Route registered twice: ${key} ${path}`);
      const entry: Entry<T> = { value, names };
      methods.set(key, entry);
      if (isStaticPath(segments)) {
        const raw = '/' + segments.map((s) => encodeStatic((s as { text: string }).text)).join('/');
        let m = this.statics.get(raw);
        if (!m) this.statics.set(raw, (m = new Map()));
        m.set(key, entry);
      }
    }
  }

  /** The route for a request; params longer than `maxParamLength` are named in `tooLong`. */
  match(method: string, path: string, maxParamLength = Infinity): Match<T> | null {
    const hit = this.statics.get(path);
    if (hit !== undefined) {
      const entry = pick(hit, method);
      if (entry !== undefined) return { value: entry.value, params: EMPTY_PARAMS };
    }
    if (path.charCodeAt(0) !== 47 /* / */) return null;
    const values: string[] = [];
    const entry = this.walk(this.root, path, 1, method, values, path.indexOf('%') !== -1);
    if (entry === undefined) return null;
    if (entry.names.length === 0) return { value: entry.value, params: EMPTY_PARAMS };
    // Checked here, over the names array, not by the caller looping over params: on Deno 2.9
    // such a for-in loop, compiled while only static routes ran, put Maglev in a deopt loop.
    const params: Params = {};
    let malformed = false;
    let tooLong: string | undefined;
    for (let i = 0; i < entry.names.length; i++) {
      const raw = values[i];
      const decoded = decode(raw);
      if (decoded === undefined) malformed = true;
      const value = decoded ?? raw;
      if (value.length > maxParamLength && tooLong === undefined) tooLong = entry.names[i];
      params[entry.names[i]] = value;
    }
    if (malformed) return { value: entry.value, params, malformed: true };
    return tooLong === undefined ? { value: entry.value, params } : { value: entry.value, params, tooLong };
  }

  /** Methods that have a route for this path, in a stable order. */
  allowed(path: string): string[] {
    const found = new Set<string>();
    if (path.charCodeAt(0) === 47) this.collect(this.root, path, 1, path.indexOf('%') !== -1, found);
    if (found.has(ANY)) return [...METHODS];
    if (found.has('GET')) found.add('HEAD');
    const known = METHODS.filter((m) => found.has(m));
    const extra = [...found].filter((m) => !(METHODS as readonly string[]).includes(m)).sort();
    return [...known, ...extra];
  }

  private walk(
    node: Node<T>,
    path: string,
    start: number,
    method: string,
    values: string[],
    encoded: boolean,
  ): Entry<T> | undefined {
    const slash = path.indexOf('/', start);
    const end = slash === -1 ? path.length : slash;
    const raw = path.slice(start, end);
    const last = slash === -1;

    if (node.statics !== null) {
      const text = encoded ? decode(raw) : raw;
      const next = text === undefined ? undefined : node.statics.get(text);
      if (next !== undefined) {
        const found = last ? (next.routes && pick(next.routes, method)) : this.walk(next, path, end + 1, method, values, encoded);
        if (found) return found;
      }
    }
    if (raw.length > 0) {
      if (node.constrained !== null) {
        const text = encoded ? decode(raw) : raw;
        if (text !== undefined) {
          for (const c of node.constrained) {
            if (!c.re.test(text)) continue;
            values.push(raw);
            const found = last ? (c.node.routes && pick(c.node.routes, method)) : this.walk(c.node, path, end + 1, method, values, encoded);
            if (found) return found;
            values.pop();
          }
        }
      }
      if (node.param !== null) {
        values.push(raw);
        const next = node.param;
        const found = last ? (next.routes && pick(next.routes, method)) : this.walk(next, path, end + 1, method, values, encoded);
        if (found) return found;
        values.pop();
      }
    }
    if (node.wildcard !== null) {
      const found = pick(node.wildcard, method);
      if (found) {
        values.push(path.slice(start));
        return found;
      }
    }
    return undefined;
  }

  private collect(node: Node<T>, path: string, start: number, encoded: boolean, out: Set<string>): void {
    const slash = path.indexOf('/', start);
    const end = slash === -1 ? path.length : slash;
    const raw = path.slice(start, end);
    const last = slash === -1;
    const text = encoded ? decode(raw) : raw;
    const visit = (next: Node<T>) => {
      if (last) next.routes?.forEach((_, m) => out.add(m));
      else this.collect(next, path, end + 1, encoded, out);
    };
    const st = text === undefined ? undefined : node.statics?.get(text);
    if (st) visit(st);
    if (raw.length > 0) {
      if (text !== undefined) for (const c of node.constrained ?? []) if (c.re.test(text)) visit(c.node);
      if (node.param) visit(node.param);
    }
    node.wildcard?.forEach((_, m) => out.add(m));
  }
}

/** The route for a method; HEAD falls back to GET, and every method to `all()`. */
function pick<T>(methods: Methods<T>, method: string): Entry<T> | undefined {
  return methods.get(method) ?? (method === 'HEAD' ? methods.get('GET') : undefined) ?? methods.get(ANY);
}

/** The form a client sends a static segment in, so the fast lookup hits for non-ASCII paths too. */
function encodeStatic(text: string): string {
  return /^[\w\-.~!$&'()*+,;=:@]*$/.test(text) ? text : encodeURIComponent(text);
}
