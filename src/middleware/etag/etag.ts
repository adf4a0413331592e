/**
 * rove/etag: weak ETags for dynamic responses, and 304 Not Modified when the
 * client already has the same body. Only GET and HEAD, only 200 responses whose
 * body is already built (strings, bytes) and at most `maxSize` bytes; streams
 * pass through untouched. A response that carries its own ETag is only compared.
 */
import type { Handler } from '../../core/compose.ts';
import { named } from '../../core/named.ts';
import { TOKEN } from '../../http/headers.ts';
import { knownBody } from '../../http/known-body.ts';
import { etagMatches } from '../static/conditional.ts';

export interface EtagOptions {
  /** Largest body hashed, in bytes. Default 1 MiB. */
  maxSize?: number;
  /**
   * Headers a 304 keeps, replacing the default list (`RETAINED_ON_304`, RFC 9110 §15.4.5).
   * `ETag` is always kept. Add to the default with `[...RETAINED_ON_304, 'x-request-id']`.
   */
  retainedHeaders?: readonly string[];
  /**
   * Your own tag for a body: the text inside the quotes (the middleware adds `W/"…"`). May be
   * async. Default: the body's length and SHA-1. Characters outside `!`, `#`–`~` are refused
   * with a 500, as a tag cannot hold them.
   */
  digest?: (bytes: Uint8Array) => string | Promise<string>;
}

/** Headers a 304 keeps by default (RFC 9110 §15.4.5); the rest describe a body it does not have. */
export const RETAINED_ON_304: readonly string[] = ['cache-control', 'content-location', 'date', 'etag', 'expires', 'vary', 'set-cookie', 'last-modified'];
// RFC 9110 §8.8.3: etagc.
const ETAGC = /^[\x21\x23-\x7e\x80-\xff]*$/;

/**
 * Add a weak ETag (SHA-1 of the body) and answer a matching If-None-Match with 304.
 *
 * @example
 * import { etag } from 'rove/etag';
 * app.use('/api', etag());
 * app.get('/api/notes', (c) => c.json(notes)); // ETag: W/"…"; If-None-Match → 304
 * app.use('/feed', etag({ retainedHeaders: [...RETAINED_ON_304, 'x-request-id'], digest: (bytes) => myHash(bytes) }));
 */
export function etag(options: EtagOptions = {}): Handler {
  const max = options.maxSize ?? 1024 * 1024;
  const retained = options.retainedHeaders ?? RETAINED_ON_304;
  if (!Array.isArray(retained) || retained.some((h) => typeof h !== 'string' || !TOKEN.test(h)))
    throw new TypeError('etag(): retainedHeaders is a list of header names');
  const keep = [...new Set(['etag', ...retained.map((h) => h.toLowerCase())])];
  const digest = options.digest;
  if (digest !== undefined && typeof digest !== 'function') throw new TypeError('etag(): digest is a function of the body bytes');
  const tagOf = digest === undefined ? weakTag : async (bytes: Uint8Array) => `W/"${checkTag(await digest(bytes))}"`;
  const layer: Handler = async (c, next) => {
    await next();
    const method = c.req.method;
    if (method !== 'GET' && method !== 'HEAD') return;
    let res = c.res;
    if (res.status !== 200) return;
    let tag = res.headers.get('etag');
    if (tag === null) {
      const bytes = await knownBody(res, max);
      if (bytes === undefined) return;
      tag = await tagOf(bytes);
      // The body was read from a clone: answer with those bytes and drop the original.
      res.body?.cancel().catch(() => {});
      res = new Response(bytes as BodyInit, res);
      res.headers.set('etag', tag);
      c.res = res;
    }
    const inm = c.req.header('if-none-match');
    if (inm !== undefined && etagMatches(inm, tag)) {
      res.body?.cancel().catch(() => {});
      const headers = new Headers();
      for (const name of keep) {
        if (name === 'set-cookie') for (const v of res.headers.getSetCookie()) headers.append(name, v);
        else {
          const v = res.headers.get(name);
          if (v !== null) headers.set(name, v);
        }
      }
      c.res = new Response(null, { status: 304, headers });
    }
  };
  return named('etag', layer);
}

function checkTag(tag: unknown): string {
  if (typeof tag !== 'string' || !ETAGC.test(tag)) throw new TypeError(`etag(): digest gave ${JSON.stringify(tag)}, which a tag cannot hold`);
  return tag;
}

/**
 * `W/"<length>-<sha1 base64url, 22 chars>"` for a body.
 *
 * @example
 * await weakTag(new TextEncoder().encode('hi')); // 'W/"2-…"'
 */
export async function weakTag(bytes: Uint8Array): Promise<string> {
  const digest = new Uint8Array(await crypto.subtle.digest('SHA-1', bytes as BufferSource));
  let bin = '';
  for (let i = 0; i < 16; i++) bin += String.fromCharCode(digest[i]);
  const b64 = btoa(bin).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
  return `W/"${bytes.byteLength.toString(16)}-${b64}"`;
}
