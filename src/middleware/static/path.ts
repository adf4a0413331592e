// Which file a request path names, under a URL prefix. Every rule here is a
// refusal: the adapters still check the resolved real path against the root.

/** Longest path (in characters, as sent) and most segments a static request may have. */
export const MAX_PATH_LENGTH = 2048;
export const MAX_SEGMENTS = 64;

/** The outcome for one request path. */
export type StaticPath =
  /** Not under the prefix: the middleware lets the request through. */
  | { kind: 'skip' }
  /** A path that tries to leave the root or hides something odd: answer 404. */
  | { kind: 'reject'; reason: string }
  /** A relative file path (`/`-separated, no empty, `.` or `..` segment); `dir` when it ended in `/`. */
  | { kind: 'file'; rel: string; dir: boolean };

const SKIP: StaticPath = { kind: 'skip' };

/** Normalises a prefix option to `''` or `/a/b` (no trailing slash). */
export function normalizePrefix(prefix: string | undefined): string {
  if (prefix === undefined || prefix === '' || prefix === '/') return '';
  let p = prefix.startsWith('/') ? prefix : `/${prefix}`;
  while (p.endsWith('/')) p = p.slice(0, -1);
  if (p.includes('//') || p.includes('\\') || /(^|\/)\.\.?(\/|$)/.test(p)) throw new TypeError(`serveStatic: invalid prefix ${JSON.stringify(prefix)}`);
  return p;
}

/**
 * Map a request path (percent-encoded, as sent) to a file path under the
 * root, after removing `prefix`. Refused: `.`/`..` segments (also encoded),
 * encoded or literal backslashes and slashes inside a segment, NUL and other
 * control characters, empty inner segments, malformed escapes, dotfiles unless
 * `dotfiles` is true, and paths over the length limits.
 *
 * @example
 * staticPath('/static/css/app.css', '/static'); // { kind: 'file', rel: 'css/app.css', dir: false }
 * staticPath('/static/%2e%2e/x', '/static').kind; // 'reject'
 */
export function staticPath(path: string, prefix: string, dotfiles = false): StaticPath {
  let rest: string;
  if (prefix === '') rest = path;
  else if (path === prefix)
    return { kind: 'file', rel: '', dir: false }; // the root, named without its slash
  else if (path.startsWith(prefix) && path.charCodeAt(prefix.length) === 47 /* / */) rest = path.slice(prefix.length);
  else return SKIP;
  if (rest.length > MAX_PATH_LENGTH) return reject('path too long');
  if (!rest.startsWith('/')) return reject('path must start with /');
  const raw = rest.slice(1).split('/');
  if (raw.length > MAX_SEGMENTS) return reject('too many segments');
  const dir = raw[raw.length - 1] === '';
  if (dir) raw.pop();
  const out: string[] = [];
  for (const segment of raw) {
    let name = segment;
    if (segment.includes('%')) {
      try {
        name = decodeURIComponent(segment);
      } catch {
        return reject('malformed percent-encoding');
      }
    }
    if (name === '') return reject('empty segment');
    if (name === '.' || name === '..') return reject('dot segment');
    // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters (NUL first) are what it refuses
    if (/[/\\\u0000-\u001f\u007f]/.test(name)) return reject('slash, backslash or control character in a segment');
    if (!dotfiles && name.startsWith('.')) return reject('dotfile');
    out.push(name);
  }
  return { kind: 'file', rel: out.join('/'), dir: dir || out.length === 0 };
}

function reject(reason: string): StaticPath {
  return { kind: 'reject', reason };
}
