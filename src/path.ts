import { HttpError } from './errors.ts';

// Anything that may need resolving or refusing: a backslash, a percent escape, "/." or "//".
const SUSPECT = /[\\%]|\/[./]/;
const RESOLVE = /\\|\/\.|%2e/i;

/**
 * The request path the router and middleware scopes see, the same on every
 * runtime: dot segments (also `%2e`) and backslashes are resolved as WHATWG URL
 * does (Bun does it before the app runs; Node, Deno and workerd pass the target
 * as sent). Then an encoded slash or an empty inner segment is refused with 400:
 * either would let two spellings of one path disagree about which segments it
 * has, and so about which middleware guards it.
 */
export function normalizePath(path: string): string {
  if (!SUSPECT.test(path)) return path;
  // The host keeps a leading "//" inside the path instead of reading it as an authority.
  const resolved = RESOLVE.test(path) ? new URL(`http://h${path}`).pathname : path;
  if (/%2f/i.test(resolved)) throw new HttpError(400, 'Encoded slash (%2F) in the path');
  if (resolved.includes('//')) throw new HttpError(400, 'Empty segment (//) in the path');
  return resolved;
}
