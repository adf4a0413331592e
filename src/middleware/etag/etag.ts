/**
 * rove/etag: weak ETags for dynamic responses, and 304 Not Modified when the
 * client already has the same body. Only GET and HEAD, only 200 responses whose
 * body is already built (strings, bytes) and at most `maxSize` bytes; streams
 * pass through untouched. A response that carries its own ETag is only compared.
 */
import type { Handler } from '../../compose.ts';
import { knownBody } from '../../known-body.ts';
import { etagMatches } from '../static/conditional.ts';

export interface EtagOptions {
  /** Largest body hashed, in bytes. Default 1 MiB. */
  maxSize?: number;
}

/** Headers a 304 keeps (RFC 9110 §15.4.5); the rest describe a body it does not have. */
const KEEP_ON_304 = ['cache-control', 'content-location', 'date', 'etag', 'expires', 'vary', 'set-cookie', 'last-modified'];

/**
 * Add a weak ETag (SHA-1 of the body) and answer a matching If-None-Match with 304.
 *
 * @example
 * import { etag } from 'rove/etag';
 * app.use('/api', etag());
 * app.get('/api/notes', (c) => c.json(notes)); // ETag: W/"…"; If-None-Match → 304
 */
export function etag(options: EtagOptions = {}): Handler {
  const max = options.maxSize ?? 1024 * 1024;
  return async (c, next) => {
    await next();
    const method = c.req.method;
    if (method !== 'GET' && method !== 'HEAD') return;
    let res = c.res;
    if (res.status !== 200) return;
    let tag = res.headers.get('etag');
    if (tag === null) {
      const bytes = await knownBody(res, max);
      if (bytes === undefined) return;
      tag = await weakTag(bytes);
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
      for (const name of KEEP_ON_304) {
        if (name === 'set-cookie') for (const v of res.headers.getSetCookie()) headers.append(name, v);
        else {
          const v = res.headers.get(name);
          if (v !== null) headers.set(name, v);
        }
      }
      c.res = new Response(null, { status: 304, headers });
    }
  };
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
