// Places on disk as file: URLs, with Deno's own APIs: node:path and node:url would start Deno's
// Node layer. Used by Deno's rove/views and rove/fs-routes.

// The few Deno APIs used here, declared so the file type-checks without Deno's lib.
declare const Deno: { cwd(): string; build: { os: string } };

/** A path as a file: URL, each segment escaped (a `%`, `?` or `#` in a name is a character, not syntax). */
export function pathUrl(path: string): URL {
  const windows = Deno.build.os === 'windows';
  const p = windows ? path.replaceAll('\\', '/') : path;
  const absolute = windows ? /^[a-zA-Z]:\//.test(p) : p.startsWith('/');
  const full = absolute ? p : `${(windows ? Deno.cwd().replaceAll('\\', '/') : Deno.cwd()).replace(/\/$/, '')}/${p}`;
  const segments = full.split('/').map((s, i) => (windows && i === 0 ? s : encodeURIComponent(s)));
  return new URL(`file://${windows ? '/' : ''}${segments.join('/')}`); // URL drops `.` and `..` segments
}

/**
 * `dir` as a file: URL ending in `/`: a URL, a `file:` string, or a path relative to the working
 * directory (the rule of adapters/shared/fs-path.ts, without node:path and node:url).
 *
 * @example
 * dirUrl('views').href; // 'file:///<cwd>/views/'
 */
export function dirUrl(dir: string | URL): URL {
  let url: URL;
  if (dir instanceof URL) {
    if (dir.protocol !== 'file:') throw new TypeError(`Expected a file: URL or a path, got ${dir.href}`);
    url = new URL(dir.href);
  } else if (typeof dir !== 'string') {
    throw new TypeError(`Expected a path or a file: URL, got ${typeof dir}`);
  } else {
    url = dir.startsWith('file:') ? new URL(dir) : pathUrl(dir);
  }
  url.search = '';
  url.hash = '';
  if (!url.pathname.endsWith('/')) url.pathname += '/';
  return url;
}

/** The file-system path of a file: URL (for messages and the runtime's file APIs). */
export function urlPath(url: URL): string {
  const path = decodeURIComponent(url.pathname);
  return Deno.build.os === 'windows' ? path.slice(1).replaceAll('/', '\\') : path;
}
