/**
 * rove/static on Cloudflare Workers: the same `serveStatic()` call serves
 * through the Workers Static Assets binding (`[assets]` in wrangler.toml).
 * The `[assets]` directory plays the part of `root`: `/static/app.css` with
 * `prefix: '/static'` is the asset `/app.css`. Rove's path rules run first;
 * the platform then answers with its own ETag, 304s, content types and
 * caching (no Last-Modified; Range as the platform does it: Miniflare 4
 * answers the whole file), and a missing asset falls through to the next handler.
 */
import type { Handler } from '../../src/core/compose.ts';
import { normalizePrefix, type ServeStaticOptions, staticPath } from '../../src/middleware/static/index.ts';
import { refuse } from '../../src/middleware/static/serve.ts';

export * from '../../src/middleware/static/index.ts';

/** The part of the assets binding used here (a Fetcher). */
interface AssetsBinding {
  fetch(request: Request): Promise<Response>;
}

/**
 * Serve assets from the `ASSETS` binding (or `options.binding`), below the URL `prefix`.
 *
 * @example
 * // wrangler.toml: [assets] directory = "./public"  binding = "ASSETS"
 * import { serveStatic } from 'rove/static';
 * app.use('/static', serveStatic({ prefix: '/static' }));
 */
export function serveStatic(options: ServeStaticOptions = {}): Handler {
  const prefix = normalizePrefix(options.prefix);
  const name = options.binding ?? 'ASSETS';
  const dotfiles = options.dotfiles === true;
  const cacheControl = options.cacheControl;
  return async (c, next) => {
    const method = c.req.method;
    if (method !== 'GET' && method !== 'HEAD') return next();
    const target = staticPath(c.path, prefix, dotfiles);
    if (target.kind === 'skip') return next();
    if (target.kind === 'reject') refuse(c, target.reason);
    const assets = (c.env as Record<string, unknown>)[name] as AssetsBinding | undefined;
    if (typeof assets?.fetch !== 'function') {
      throw new Error(`serveStatic on Workers needs the ${name} binding: add [assets] with directory and binding = "${name}" to wrangler.toml`);
    }
    const rel = target.rel === '' ? '' : target.rel.split('/').map(encodeURIComponent).join('/');
    const url = new URL(`/${rel}${target.dir && rel !== '' ? '/' : ''}`, c.req.url);
    const res = await assets.fetch(new Request(url, { method, headers: c.req.raw.headers }));
    if (res.status === 404) {
      await res.body?.cancel();
      return next();
    }
    const out = new Response(res.body, res);
    // The platform's redirects (`/docs` → `/docs/`) name asset paths: put the prefix back.
    const location = out.headers.get('location');
    if (location?.startsWith('/') && !location.startsWith('//')) out.headers.set('location', prefix + location);
    if (cacheControl !== undefined && res.status < 400) out.headers.set('cache-control', cacheControl);
    return out;
  };
}
