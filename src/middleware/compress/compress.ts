/**
 * rove/compress: gzip, deflate (and brotli where the runtime's
 * CompressionStream has it) for responses of compressible types above a size
 * threshold, with `Vary: Accept-Encoding`. A response that already has a
 * Content-Encoding, `Cache-Control: no-transform`, a 206/204/304 status or an
 * event stream is left as it is.
 *
 * Workers and Deno Deploy compress at the platform: there the middleware does
 * nothing unless `enabled: true` (detected from `navigator.userAgent` on
 * Workers and `DENO_DEPLOYMENT_ID` in the environment on Deploy).
 */
import type { Handler } from '../../core/compose.ts';
import type { Context } from '../../core/context.ts';
import { named } from '../../core/named.ts';
import { knownBody } from '../../http/known-body.ts';
import { addVary, pickEncoding } from '../static/encoding.ts';
import { isCompressible } from '../static/mime.ts';

export type Encoding = 'br' | 'gzip' | 'deflate';

export interface CompressOptions {
  /** Smallest body compressed, in bytes. Default 1024. */
  threshold?: number;
  /** Encodings offered, in order of preference. Default `['br', 'gzip', 'deflate']` (br only where supported). */
  encodings?: Encoding[];
  /** Force on or off; by default off where the platform compresses (Workers, Deno Deploy). */
  enabled?: boolean | ((c: Context<any, any>) => boolean);
  /**
   * Which content types are compressed: a predicate of the `Content-Type` value, or a RegExp
   * tested against it. Default: text, JSON, JavaScript, XML, SVG, wasm, `+json` and `+xml`.
   * Whatever it says, formats that are compressed already (images but SVG, audio, video, zip,
   * gzip and other archives, woff2) and `text/event-stream` are left alone.
   */
  filter?: ((contentType: string) => boolean) | RegExp;
}

// Compressing these again costs CPU and gains nothing.
const PACKED =
  /^(?:image\/(?!svg\+xml)|audio\/|video\/|font\/woff2|application\/(?:zip|gzip|x-gzip|x-7z-compressed|x-rar-compressed|x-bzip2|x-xz|zstd)|text\/event-stream)/i;

let brotliFormat: string | null | undefined;
/** The CompressionStream format name for brotli on this runtime, or null: asked once. */
export function brotliSupport(): string | null {
  if (brotliFormat !== undefined) return brotliFormat;
  brotliFormat = null;
  for (const name of ['brotli', 'br']) {
    try {
      new CompressionStream(name as CompressionFormat);
      brotliFormat = name;
      break;
    } catch {
      // not this name
    }
  }
  return brotliFormat;
}

/** Whether the platform in front of the app compresses for it. */
export function platformCompresses(c: Context<any, any>): boolean {
  if (typeof navigator !== 'undefined' && navigator.userAgent === 'Cloudflare-Workers') return true;
  return typeof (c.env as Record<string, unknown>).DENO_DEPLOYMENT_ID === 'string';
}

/**
 * Compress responses the client accepts compressed.
 *
 * @example
 * import { compress } from 'rove/compress';
 * app.use(compress({ threshold: 1024 }));
 * app.use(compress({ filter: (type) => type.startsWith('text/html') || type.startsWith('application/json') }));
 * app.use(compress({ filter: /^(text\/|application\/(json|ld\+json))/ }));
 */
export function compress(options: CompressOptions = {}): Handler {
  const threshold = options.threshold ?? 1024;
  const wanted = options.encodings ?? ['br', 'gzip', 'deflate'];
  const enabled = options.enabled;
  const filter = options.filter;
  if (filter !== undefined && typeof filter !== 'function' && !(filter instanceof RegExp))
    throw new TypeError('compress(): filter is a function of the content type, or a RegExp');
  // A global or sticky RegExp keeps state between tests: a copy without those flags does not.
  const pattern = filter instanceof RegExp ? new RegExp(filter.source, filter.flags.replace(/[gy]/g, '')) : undefined;
  const wants = pattern !== undefined ? (type: string) => pattern.test(type) : typeof filter === 'function' ? filter : isCompressible;
  let offered: Encoding[] | undefined;
  const layer: Handler = async (c, next) => {
    await next();
    if (enabled === false) return;
    if (enabled === undefined ? platformCompresses(c) : typeof enabled === 'function' && !enabled(c)) return;
    const res = c.res;
    if (res.body === null || res.status === 204 || res.status === 206 || res.status === 304 || c.req.method === 'HEAD') return;
    const type = res.headers.get('content-type');
    if (type === null || PACKED.test(type) || wants(type) !== true) return;
    if (res.headers.has('content-encoding') || /no-transform/i.test(res.headers.get('cache-control') ?? '')) return;
    // The answer depends on Accept-Encoding from here on, compressed or not.
    const vary = addVary(res.headers.get('vary'), 'Accept-Encoding');
    offered ??= wanted.filter((e) => e !== 'br' || brotliSupport() !== null);
    const encoding = pickEncoding(c.req.header('accept-encoding') ?? null, offered);
    const length = res.headers.get('content-length');
    const small = length !== null && Number(length) < threshold;
    if (!small && length === null && encoding !== undefined) {
      const bytes = await knownBody(res, threshold - 1);
      if (bytes !== undefined) {
        // Read from a clone, the original body is now a copy being streamed: answer with the bytes
        // themselves, so the runtime still knows (and sends) the length.
        res.body?.cancel().catch(() => {});
        const copy = new Response(bytes as BodyInit, res);
        copy.headers.set('vary', vary);
        c.res = copy;
        return;
      }
    }
    if (encoding === undefined || small) {
      c.res = withVary(res, vary);
      return;
    }
    const format = (encoding === 'br' ? brotliSupport() : encoding) as CompressionFormat;
    const headers = new Headers(res.headers);
    headers.set('content-encoding', encoding);
    headers.set('vary', vary);
    headers.delete('content-length');
    headers.delete('accept-ranges');
    const tag = headers.get('etag');
    if (tag !== null && !tag.startsWith('W/')) headers.set('etag', `W/${tag}`); // not the same bytes any more
    c.res = new Response(res.body.pipeThrough(new CompressionStream(format)), { status: res.status, statusText: res.statusText, headers });
  };
  return named('compress', layer);
}

function withVary(res: Response, vary: string): Response {
  if (res.headers.get('vary') === vary) return res;
  try {
    res.headers.set('vary', vary);
    return res;
  } catch {
    const copy = new Response(res.body, res);
    copy.headers.set('vary', vary);
    return copy;
  }
}
