// The static-file middleware over any FileSource: path rules, conditional
// requests, ranges, content types and precompressed siblings. Web Standards only.
import type { Handler } from '../compose.ts';
import type { Context } from '../context.ts';
import { HttpError } from '../errors.ts';
import { fileEtag, notModified, rangeApplies } from './conditional.ts';
import { addVary, pickEncoding } from './encoding.ts';
import { mimeType } from './mime.ts';
import type { ServeStaticOptions } from './options.ts';
import { normalizePrefix, staticPath } from './path.ts';
import { parseRange } from './range.ts';
import type { FileSource, StaticFile } from './source.ts';

declare module '../event-map.ts' {
  interface EventMap {
    /** serveStatic refused a path that tried to leave its root or named a hidden file; the answer was 404. */
    'static:rejected': { path: string; reason: string };
  }
}

const SIBLINGS = [
  ['br', '.br'],
  ['gzip', '.gz'],
] as const;
const ENCODINGS = ['br', 'gzip'] as const;

/**
 * Refuse a hostile path with 404 (through the app's not-found handler) and tell listeners why.
 */
export function refuse(c: Context<any, any>, reason: string): never {
  c.emit('static:rejected', () => ({ path: c.req.path, reason }));
  throw new HttpError(404);
}

/**
 * The static middleware over a file source. Adapters call this with their own
 * source; apps import `serveStatic` from `rove/static`.
 */
export function serveFrom(source: FileSource, options: ServeStaticOptions = {}): Handler {
  const prefix = normalizePrefix(options.prefix);
  const index = options.index === undefined ? 'index.html' : options.index;
  const useEtag = options.etag !== false;
  const useLastModified = options.lastModified !== false;
  const precompressed = options.precompressed === true;
  const dotfiles = options.dotfiles === true;
  const types = options.mimeTypes;
  const cacheControl = options.cacheControl;
  if (index !== false && (index === '' || /[/\\\0]/.test(index) || index === '.' || index === '..')) {
    throw new TypeError(`serveStatic: index must be a file name, not ${JSON.stringify(index)}`);
  }

  return async (c, next) => {
    const method = c.req.method;
    if (method !== 'GET' && method !== 'HEAD') return next();
    const target = staticPath(c.path, prefix, dotfiles);
    if (target.kind === 'skip') return next();
    if (target.kind === 'reject') refuse(c, target.reason);
    let rel = target.rel;
    if (target.dir) {
      if (index === false) return next();
      rel = rel === '' ? index : `${rel}/${index}`;
    }
    const headers = c.req.raw.headers;
    const ranged = method === 'GET' && headers.has('range');

    let file: StaticFile | undefined;
    let encoding: string | undefined;
    // A Range applies to the file as stored: no compressed sibling then.
    if (precompressed && !ranged) {
      const wanted = pickEncoding(headers.get('accept-encoding'), ENCODINGS);
      if (wanted !== undefined) {
        for (const [enc, ext] of SIBLINGS) {
          if (pickEncoding(headers.get('accept-encoding'), [enc]) === undefined) continue;
          const found = await source.open(`${rel}${ext}`);
          if (found === 'directory') continue;
          if (found !== undefined) {
            file = found;
            encoding = enc;
            break;
          }
        }
      }
    }
    if (file === undefined) {
      const found = await source.open(rel);
      if (found === undefined) return next();
      if (found === 'directory') {
        // `/docs` names a directory: send the client to `/docs/` so relative links work, if there is an index.
        if (index === false || target.dir) return next();
        const inner = await source.open(`${rel}/${index}`);
        if (inner === undefined || inner === 'directory') return next();
        inner.close();
        const query = c.req.url.indexOf('?');
        return c.redirect(`${c.path}/${query === -1 ? '' : c.req.url.slice(query)}`, 301);
      }
      file = found;
    }

    const out: Record<string, string> = { 'content-type': mimeType(rel, types) };
    const etag = useEtag ? fileEtag(file.size, file.mtimeMs) : undefined;
    const lastModified = useLastModified && Number.isFinite(file.mtimeMs) ? new Date(file.mtimeMs).toUTCString() : undefined;
    if (etag !== undefined) out.etag = etag;
    if (lastModified !== undefined) out['last-modified'] = lastModified;
    if (cacheControl !== undefined) out['cache-control'] = cacheControl;
    if (precompressed) out.vary = addVary(null, 'Accept-Encoding');

    if (notModified(headers, etag, useLastModified ? file.mtimeMs : undefined)) {
      file.close();
      delete out['content-type'];
      return c.body(null, 304, out);
    }
    if (encoding !== undefined) out['content-encoding'] = encoding;
    else out['accept-ranges'] = 'bytes';

    const size = file.size;
    let start = 0;
    let end = size - 1;
    let status = 200;
    if (ranged && rangeApplies(headers.get('if-range'), etag, lastModified)) {
      const range = parseRange(headers.get('range'), size);
      if (range.kind === 'unsatisfiable') {
        file.close();
        out['content-range'] = `bytes */${size}`;
        delete out['content-type'];
        return c.body(null, 416, out);
      }
      if (range.kind === 'partial') {
        start = range.start;
        end = range.end;
        status = 206;
        out['content-range'] = `bytes ${start}-${end}/${size}`;
      }
    }
    out['content-length'] = String(end - start + 1);
    if (method === 'HEAD' || size === 0) {
      file.close();
      // The GET's length, with no body: a bare Response, since a helper's null body means length 0 on Node.
      return new Response(null, { status, headers: out }); // the app adds c.header() values;
    }
    return c.body(await file.body(start, end), status, out);
  };
}
