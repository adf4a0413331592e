// The static-file middleware over any FileSource: path rules, conditional
// requests, ranges, content types and precompressed siblings. Web Standards only.
import type { Handler } from '../../core/compose.ts';
import type { Context } from '../../core/context.ts';
import { HttpError } from '../../core/errors.ts';
import { named } from '../../core/named.ts';
import { checkHeader } from '../../http/headers.ts';
import { fileEtag, httpDate, notModified, rangeApplies } from './conditional.ts';
import { pickEncoding } from './encoding.ts';
import { mimeType } from './mime.ts';
import type { ServeStaticOptions } from './options.ts';
import { normalizePrefix, staticPath } from './path.ts';
import { parseRange } from './range.ts';
import type { FileSource, FileStat, OpenResult, StaticFile } from './source.ts';

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
  if (cacheControl !== undefined) checkHeader('cache-control', cacheControl);
  for (const ext in types ?? {}) checkHeader('content-type', types![ext]);
  if (index !== false && (index === '' || /[/\\\0]/.test(index) || index === '.' || index === '..')) {
    throw new TypeError(`serveStatic: index must be a file name, not ${JSON.stringify(index)}`);
  }

  // The validators of the file version answered last: a busy file's ETag, date and 304 headers
  // are worked out once, not per request.
  let last: Validators | undefined;
  const validatorsOf = (file: FileStat): Validators => {
    if (last !== undefined && last.size === file.size && Object.is(last.mtimeMs, file.mtimeMs)) return last;
    const etag = useEtag ? fileEtag(file.size, file.mtimeMs) : undefined;
    const lastModified = useLastModified && Number.isFinite(file.mtimeMs) ? httpDate(file.mtimeMs) : undefined;
    const pairs: [string, string][] = [];
    if (etag !== undefined) pairs.push(['etag', etag]);
    if (lastModified !== undefined) pairs.push(['last-modified', lastModified]);
    if (cacheControl !== undefined) pairs.push(['cache-control', cacheControl]);
    if (precompressed) pairs.push(['vary', 'Accept-Encoding']);
    return (last = { size: file.size, mtimeMs: file.mtimeMs, etag, lastModified, pairs, notModified: Object.fromEntries(pairs) });
  };

  /** The headers every answer for a file carries, and its validators; `rel` adds the content type (a 304 has none). */
  const fileHeaders = (file: FileStat, rel: string | undefined) => {
    const v = validatorsOf(file);
    const out: Record<string, string> = rel === undefined ? {} : { 'content-type': mimeType(rel, types) };
    for (const [name, value] of v.pairs) out[name] = value;
    return { out, etag: v.etag, lastModified: v.lastModified };
  };

  /** The 304 for a fresh copy, or undefined when the client's copy is stale (or it sent no validator). */
  const fresh = (c: Context<any, any>, file: FileStat, header: Header, inm: string | undefined) => {
    const v = validatorsOf(file);
    // An If-None-Match equal to the ETag is what a client sends back most of the time.
    if (!(inm !== undefined && inm === v.etag) && !notModified(header, v.etag, useLastModified ? file.mtimeMs : undefined)) return undefined;
    return c.body(null, 304, v.notModified);
  };

  /** The answer for an opened file (Response, or a promise when its body is read first). */
  const respond = (c: Context<any, any>, file: StaticFile, rel: string, encoding: string | undefined, header: Header, rangeHeader: string | undefined) => {
    const method = c.req.method;
    const { out, etag, lastModified } = fileHeaders(file, rel);
    if (notModified(header, etag, useLastModified ? file.mtimeMs : undefined)) {
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
    if (rangeHeader !== undefined && encoding === undefined && rangeApplies(header('if-range'), etag, lastModified)) {
      const range = parseRange(rangeHeader, size);
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
    const length = String(end - start + 1);
    if (method === 'HEAD' || size === 0) {
      out['content-length'] = length;
      file.close();
      // The GET's length with no body: a bare Response (a helper's null body means length 0 on Node); the app adds c.header() values.
      return new Response(null, { status, headers: out });
    }
    if (file.sized !== true) out['content-length'] = length;
    const body = file.body(start, end);
    return body instanceof Promise ? body.then((b) => send(c, b, status, out)) : send(c, body, status, out);
  };

  /** `/docs` names a directory: send the client to `/docs/` (relative links then work) when it has an index. */
  const toDirectory = async (c: Context<any, any>, rel: string, next: () => Promise<void>) => {
    if (index === false) return next();
    const inner = await source.open(rel === '' ? index : `${rel}/${index}`);
    if (inner === undefined || inner === 'directory') return next();
    inner.close();
    const query = c.req.url.indexOf('?');
    return c.redirect(`${c.path}/${query === -1 ? '' : c.req.url.slice(query)}`, 301);
  };

  /** With precompressed siblings: try `.br`, then `.gz`, as Accept-Encoding allows, then the file itself. */
  const withSiblings = async (c: Context<any, any>, rel: string, dir: boolean, header: Header, next: () => Promise<void>) => {
    const accept = header('accept-encoding') ?? null;
    for (const [enc, ext] of SIBLINGS) {
      if (pickEncoding(accept, [enc]) === undefined) continue;
      const found = await source.open(`${rel}${ext}`);
      if (found !== undefined && found !== 'directory') return respond(c, found, rel, enc, header, undefined);
    }
    return opened(c, await source.open(rel), rel, dir, header, undefined, next);
  };

  const opened = (
    c: Context<any, any>,
    found: OpenResult,
    rel: string,
    dir: boolean,
    header: Header,
    rangeHeader: string | undefined,
    next: () => Promise<void>,
  ) => {
    if (found === undefined) return next();
    if (found === 'directory') return dir ? next() : toDirectory(c, rel, next);
    return respond(c, found, rel, undefined, header, rangeHeader);
  };

  const stat = source.stat?.bind(source);

  // Not async: where the source answers at once (Bun), no promise is made on the way.
  const layer: Handler = (c, next) => {
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
    // c.req.header, not c.req.raw: on Node that would build a whole Request.
    const req = c.req;
    const header: Header = (name) => req.header(name);
    const rangeHeader = method === 'GET' ? header('range') : undefined;
    // A Range applies to the file as stored: no compressed sibling then.
    if (precompressed && rangeHeader === undefined && pickEncoding(header('accept-encoding') ?? null, ENCODINGS) !== undefined) {
      return withSiblings(c, rel, target.dir, header, next);
    }
    const open = () => {
      const found = source.open(rel);
      if (found instanceof Promise) return found.then((f) => opened(c, f, rel, target.dir, header, rangeHeader, next));
      return opened(c, found, rel, target.dir, header, rangeHeader, next);
    };
    // A revalidation (If-None-Match, If-Modified-Since) is answered from a stat when the source
    // can give one: the file is opened only when the client's copy is stale.
    const inm = header('if-none-match');
    if (stat !== undefined && (useEtag || useLastModified) && (inm !== undefined || header('if-modified-since') !== undefined)) {
      const meta = stat(rel);
      if (meta instanceof Promise) return meta.then((m) => (m === undefined ? undefined : fresh(c, m, header, inm)) ?? open());
      return (meta === undefined ? undefined : fresh(c, meta, header, inm)) ?? open();
    }
    return open();
  };
  return named('serveStatic', layer);
}

type Header = (name: string) => string | undefined;

/** One file version's validators and the headers of its 304. */
interface Validators {
  readonly size: number;
  readonly mtimeMs: number;
  readonly etag: string | undefined;
  readonly lastModified: string | undefined;
  readonly pairs: readonly (readonly [string, string])[];
  /** The same pairs as a record: a 304's headers. */
  readonly notModified: Record<string, string>;
}

/** Bytes go through c.body (the adapter's light response on Node); a stream or Blob goes out as a Response as is. */
function send(c: Context<any, any>, body: BodyInit, status: number, headers: Record<string, string>): Response {
  if (body instanceof Uint8Array || typeof body === 'string') return c.body(body, status, headers);
  return new Response(body, { status, headers });
}
