/**
 * What a file in a routes directory means. Pure string work on the file's
 * path relative to the routes directory, `/`-separated, so the scanner (Node,
 * Deno, Bun) and the manifest writer (the edge build) agree by construction.
 *
 *   index.ts                 /
 *   about.ts                 /about
 *   users/[id].ts            /users/:id
 *   docs/[...path].ts        /docs/*path   (the rest of the path is the param `path`)
 *   users/_middleware.ts     middleware for /users and everything below it
 *   _lib/x.ts, _x.ts         ignored (helpers next to the routes)
 *   x.test.ts, x.css, .x/    ignored (not route files)
 */

export type RouteFile =
  | {
      kind: 'route';
      file: string;
      /** The router pattern, e.g. `/users/:id`. */
      pattern: string;
      /** The pattern with param names erased: two files with the same shape are one route twice. */
      shape: string;
    }
  | {
      kind: 'middleware';
      file: string;
      /** The path prefix it covers, e.g. `/users` (`/` for the root). */
      prefix: string;
      shape: string;
    };

/** Extensions that hold route modules. */
export const ROUTE_EXTENSIONS = ['.ts', '.js', '.mjs'] as const;

export const MIDDLEWARE_NAME = '_middleware';

/** A route file whose name breaks the conventions; the message names the file. */
export class FileRouteError extends Error {
  readonly files: string[];
  constructor(files: string | string[], message: string, options?: { cause?: unknown }) {
    const list = Array.isArray(files) ? files : [files];
    super(`${list.join(', ')}: ${message}`, options);
    this.name = 'FileRouteError';
    this.files = list;
  }
}

const IDENT = /^[A-Za-z_$][\w$]*$/;
const PARAM = /^\[([^\].]+)\]$/;
const CATCH_ALL = /^\[\.\.\.([^\]]+)\]$/;

function extensionOf(name: string): string | undefined {
  return ROUTE_EXTENSIONS.find((ext) => name.endsWith(ext) && name.length > ext.length);
}

/**
 * The route or middleware a file defines, or null when the file is not one
 * (wrong extension, an extra dot, a `_` or `.` name). Throws FileRouteError for
 * a name that looks like a route but cannot be one (`a[id].ts`, `[1x].ts`).
 */
export function classifyRouteFile(file: string): RouteFile | null {
  const parts = file.split('/');
  if (parts.some((p) => p === '' || p === '.' || p === '..')) throw new FileRouteError(file, 'not a relative path inside the routes directory');
  const base = parts.pop()!;
  const ext = extensionOf(base);
  if (ext === undefined) return null;
  const name = base.slice(0, -ext.length);
  for (const dir of parts) if (dir.startsWith('_') || dir.startsWith('.')) return null;
  if (name === MIDDLEWARE_NAME) {
    const { pattern, shape } = toPattern(file, parts, false);
    return { kind: 'middleware', file, prefix: pattern, shape };
  }
  if (name.startsWith('_') || name.startsWith('.')) return null;
  // `x.test.ts`, `x.d.ts`: an extra dot marks a file that is not a route. `[...path]` is the one name with dots.
  if (name.includes('.') && !CATCH_ALL.test(name)) return null;
  const segments = name === 'index' ? parts : [...parts, name];
  const { pattern, shape } = toPattern(file, segments, true);
  return { kind: 'route', file, pattern, shape };
}

function toPattern(file: string, segments: string[], isRoute: boolean): { pattern: string; shape: string } {
  // Import specifiers are URLs on some runtimes and plain paths on others: these characters differ.
  if (/[#?%\\]/.test(file)) throw new FileRouteError(file, 'a route file name cannot contain #, ?, % or \\');
  const out: string[] = [];
  const shape: string[] = [];
  const names = new Set<string>();
  segments.forEach((seg, i) => {
    const last = i === segments.length - 1;
    const rest = CATCH_ALL.exec(seg);
    const param = rest ? null : PARAM.exec(seg);
    const name = rest?.[1] ?? param?.[1];
    if (name !== undefined) {
      if (!IDENT.test(name)) throw new FileRouteError(file, `"${seg}": a param name must be an identifier`);
      if (names.has(name)) throw new FileRouteError(file, `the param "${name}" appears twice`);
      names.add(name);
      if (rest) {
        if (!last || !isRoute) throw new FileRouteError(file, `"${seg}": a catch-all must be the file name, the last segment`);
        out.push(`*${name}`);
        shape.push('*');
      } else {
        out.push(`:${name}`);
        shape.push(':');
      }
      return;
    }
    if (seg.includes('[') || seg.includes(']')) throw new FileRouteError(file, `"${seg}": a param must fill a whole path segment, like [id]`);
    // The router reads a leading ":" or "*" as a param or wildcard, and percent-decodes static text:
    // encode everything else unusual so that a file name means exactly itself.
    if (seg.startsWith(':') || seg.startsWith('*')) throw new FileRouteError(file, `"${seg}": a static segment cannot start with ":" or "*"`);
    const text = /^[\w\-.~!$&'()*+,;=:@]*$/.test(seg) ? seg : encodeURIComponent(seg);
    out.push(text);
    shape.push(text);
  });
  return { pattern: `/${out.join('/')}`, shape: `/${shape.join('/')}` };
}
