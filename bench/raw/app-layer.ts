// The app-layer scenarios for the fetch-style bare runtimes (Deno.serve, Bun.serve,
// deno serve, workerd): the static file as the runtime's own file response, with an
// ETag from size and mtime answered by hand, and the CORS preflight written out.
// Sessions, security headers and CSRF have no bare-runtime peer (docs/benchmarks/methods.md).
import { CORS_MAX_AGE, CORS_METHODS, CORS_ORIGIN, PUBLIC_DIR, STATIC_CACHE_CONTROL } from '../shared/app-layer.ts';

/** What a runtime gives for one file: its size, mtime and a body that streams it. */
export interface RawFile {
  size: number;
  mtimeMs: number;
  body(): BodyInit | Promise<BodyInit>;
}

export type OpenFile = (path: string) => Promise<RawFile | null>;

const CSS = `${PUBLIC_DIR}/app.css`;
const PREFLIGHT_HEADERS = {
  'access-control-allow-origin': CORS_ORIGIN,
  'access-control-allow-methods': CORS_METHODS.join(','),
  'access-control-allow-headers': 'content-type',
  'access-control-max-age': String(CORS_MAX_AGE),
  vary: 'Origin',
};

export const etagOf = (size: number, mtimeMs: number) => `W/"${size.toString(16)}-${Math.floor(mtimeMs).toString(16)}"`;

/** Whether If-None-Match names `etag` (weak comparison). */
export function matches(header: string | null | undefined, etag: string): boolean {
  if (!header) return false;
  const bare = etag.slice(2);
  return header.split(',').some((t) => {
    const tag = t.trim();
    return tag === '*' || tag === etag || tag === bare || (tag.startsWith('W/') && tag.slice(2) === bare);
  });
}

/** Wraps the bare handler with /static/app.css (when `open` is given) and the /api/data preflight. */
export function withAppLayer(handle: (req: Request) => Response | Promise<Response>, open?: OpenFile): (req: Request) => Response | Promise<Response> {
  return (req) => {
    const url = req.url;
    const start = url.indexOf('/', url.indexOf('//') + 2);
    const q = url.indexOf('?', start);
    const path = q < 0 ? url.slice(start) : url.slice(start, q);
    if (path === '/static/app.css' && open && (req.method === 'GET' || req.method === 'HEAD')) return serveCss(req, open);
    if (path === '/api/data' && req.method === 'OPTIONS') {
      if (req.headers.get('origin') !== CORS_ORIGIN) return new Response(null, { status: 204, headers: { vary: 'Origin' } });
      return new Response(null, { status: 204, headers: PREFLIGHT_HEADERS });
    }
    return handle(req);
  };
}

async function serveCss(req: Request, open: OpenFile): Promise<Response> {
  const file = await open(CSS);
  if (!file) return new Response('Not Found', { status: 404 });
  const etag = etagOf(file.size, file.mtimeMs);
  const headers = { etag, 'cache-control': STATIC_CACHE_CONTROL };
  if (matches(req.headers.get('if-none-match'), etag)) return new Response(null, { status: 304, headers });
  return new Response(req.method === 'HEAD' ? null : await file.body(), {
    headers: { ...headers, 'content-type': 'text/css; charset=utf-8', 'content-length': String(file.size) },
  });
}
