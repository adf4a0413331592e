import { HttpError } from '../core/errors.ts';

// Anything that may need resolving or refusing: a backslash, a percent escape, "/." or "//".
const SUSPECT = /[\\%]|\/[./]/;
const RESOLVE = /\\|\/\.|%2e/i;

/**
 * The request path the router and middleware scopes see, the same on every
 * runtime: dot segments (also `%2e`) and backslashes are resolved as WHATWG URL
 * specifies (Bun does it before the app runs; Node, Deno and workerd pass the
 * target as sent). Then an encoded slash or an empty inner segment is refused
 * with 400: either would let two spellings of one path disagree about which
 * segments it has, and so about which middleware guards it.
 */
export function normalizePath(path: string): string {
  if (!SUSPECT.test(path)) return path;
  const resolved = RESOLVE.test(path) ? resolveDots(path) : path;
  if (/%2f/i.test(resolved)) throw new HttpError(400, 'Encoded slash (%2F) in the path');
  if (resolved.includes('//')) throw new HttpError(400, 'Empty segment (//) in the path');
  return resolved;
}

/**
 * WHATWG URL's path parsing, for the dots: `\` is `/`, `.` and `%2e` are the
 * current segment, `..` (any mix with `%2e`) removes the one before; a dot
 * segment at the end leaves a trailing slash. Written out because Node 20's URL
 * keeps `/a/.x/..` as it is.
 */
function resolveDots(path: string): string {
  const input = path.replaceAll('\\', '/').split('/');
  const out: string[] = [];
  for (let i = 1; i < input.length; i++) {
    const segment = input[i];
    const last = i === input.length - 1;
    const lower = segment.length <= 6 ? segment.toLowerCase() : segment;
    if (lower === '..' || lower === '.%2e' || lower === '%2e.' || lower === '%2e%2e') {
      out.pop();
      if (last) out.push('');
    } else if (lower === '.' || lower === '%2e') {
      if (last) out.push('');
    } else {
      out.push(segment);
    }
  }
  return `/${out.join('/')}`;
}

/** A path's segments, percent-decoded; null when an escape is malformed. */
export function decodeSegments(path: string): string[] | null {
  const parts = path.slice(1).split('/');
  if (!path.includes('%')) return parts;
  const decoded = parts.map(decodeSegment);
  return decoded.includes(undefined) ? null : (decoded as string[]);
}

/** One segment percent-decoded; undefined when an escape is malformed. */
export function decodeSegment(text: string): string | undefined {
  if (!text.includes('%')) return text;
  try {
    return decodeURIComponent(text);
  } catch {
    return undefined;
  }
}

/** The same path with its trailing slash added or removed (none for `/`). */
export function otherSlash(path: string): string | null {
  if (path === '/') return null;
  return path.endsWith('/') ? path.slice(0, -1) : `${path}/`;
}
