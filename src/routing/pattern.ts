/**
 * The one parser of path patterns: routes (`app.get('/users/:id', …)`) and
 * middleware scopes (`app.use('/admin', …)`) both go through it, so both speak
 * the same language of decoded segments.
 */

export type Segment =
  | { kind: 'static'; text: string }
  | { kind: 'param'; name: string; re: RegExp | null; source: string; optional: boolean }
  | { kind: 'wildcard'; name: string };

export class RouteError extends Error {}

/** A pattern that cannot be a route: `why`, then the pattern. */
function bad(path: string, why: string): never {
  throw new RouteError(`${why}: ${path}`);
}

const NAME = /^[A-Za-z_$][\w$]*$/;
/** The message for a path or pattern whose percent-escapes do not decode. */
export const MALFORMED = 'Malformed percent-encoding';

/** Parse a pattern into segments; static segments are percent-decoded. */
export function parseRoute(path: string): Segment[] {
  if (path === '*' || path === '/*') return [{ kind: 'wildcard', name: '*' }];
  if (!path.startsWith('/')) bad(path, 'A route starts with "/"');
  const parts = splitPattern(path.slice(1));
  const segments: Segment[] = [];
  const seen = new Set<string>();
  const named = (name: string) => {
    if (name === '__proto__' || seen.has(name)) bad(path, `Param "${name}" is named twice or reserved`);
    seen.add(name);
    return name;
  };
  parts.forEach((part, i) => {
    const last = i === parts.length - 1;
    if (part === '*' || (part.startsWith('*') && NAME.test(part.slice(1)))) {
      if (!last) bad(path, 'A wildcard must come last');
      segments.push({ kind: 'wildcard', name: part === '*' ? '*' : named(part.slice(1)) });
      return;
    }
    // Only a param's part meets the param syntax: a static route compiles no pattern.
    if (part.startsWith(':')) {
      const m = /^:([A-Za-z_$][\w$]*)(?:\{(.+)\})?(\?)?$/.exec(part);
      if (!m) bad(path, 'Invalid param');
      let re: RegExp | null = null;
      if (m[2] !== undefined) {
        try {
          re = new RegExp(`^(?:${m[2]})$`);
        } catch {
          bad(path, 'Invalid constraint');
        }
      }
      segments.push({ kind: 'param', name: named(m[1]), re, source: m[2] ?? '', optional: m[3] === '?' });
      return;
    }
    let text: string;
    try {
      text = part.includes('%') ? decodeURIComponent(part) : part;
    } catch {
      bad(path, MALFORMED);
    }
    // Requests with these never reach the router (path.ts normalises or refuses them).
    if (text === '.' || text === '..' || text.includes('/') || (text === '' && !last)) {
      bad(path, 'A segment cannot be empty, "." or ".." or hold "/"');
    }
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

/** A segment's shape for the router: two variants with equal shapes are the same route. */
function shape(s: Segment): string {
  return s.kind === 'static' ? `s${s.text}` : s.kind === 'wildcard' ? '*' : s.re ? `c${s.source}` : ':';
}

/**
 * Every concrete variant of a pattern: each optional param present or absent,
 * earlier params kept first. Variants of the same shape collapse into the
 * first (`/v1/:a?/:b?` on `/v1/x` gives `a`), so a pattern never collides with itself.
 */
export function routeVariants(segments: Segment[]): Segment[][] {
  // Without an optional param a pattern is its one variant: nothing to expand or collapse.
  return segments.length > 0 && !segments.some((s) => (s as { optional?: boolean }).optional) ? [segments] : expand(segments);
}

function expand(segments: Segment[]): Segment[][] {
  let variants: Segment[][] = [[]];
  for (const seg of segments) {
    variants = seg.kind === 'param' && seg.optional ? variants.flatMap((v) => [[...v, seg], v]) : variants.map((v) => [...v, seg]);
  }
  const seen = new Set<string>();
  const out: Segment[][] = [];
  for (const v of variants) {
    // "/a/:b?" without b is "/a"; with nothing left it is "/", the empty-text static.
    const concrete = v.length === 0 ? [{ kind: 'static', text: '' } as Segment] : v;
    const key = concrete.map(shape).join('/');
    if (seen.has(key)) continue;
    seen.add(key);
    out.push(concrete);
  }
  return out;
}

/** A mounted app's route or scope under its mount prefix. */
export function joinPath(prefix: string, path: string): string {
  const p = prefix.endsWith('/') ? prefix.slice(0, -1) : prefix;
  if (path === '/' || path === '') return p === '' ? '/' : p;
  if (path === '*') return `${p}/*`;
  return p + (path.startsWith('/') ? path : `/${path}`);
}
