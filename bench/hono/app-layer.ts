// The app-layer scenarios in idiomatic Hono: hono/etag in front of the runtime's
// serveStatic, a signed cookie (hono/cookie, HMAC) holding the session's JSON,
// hono/cors, hono/secure-headers defaults and hono/csrf (an Origin check; Hono has no tokens).
import type { Hono, MiddlewareHandler } from 'hono';
import { getSignedCookie, setSignedCookie } from 'hono/cookie';
import { cors } from 'hono/cors';
import { csrf } from 'hono/csrf';
import { etag } from 'hono/etag';
import { secureHeaders } from 'hono/secure-headers';
import { CORS_MAX_AGE, CORS_METHODS, CORS_ORIGIN, PUBLIC_DIR, SESSION_DATA, SESSION_SECRET, STATIC_CACHE_CONTROL } from '../shared/app-layer.ts';

/** What each runtime's Hono serveStatic takes (the options used here). */
export type HonoServeStatic = (options: {
  root: string;
  rewriteRequestPath: (path: string) => string;
  onFound: (path: string, c: Parameters<MiddlewareHandler>[0]) => void;
}) => MiddlewareHandler;

export function addAppLayer(app: Hono<any>, serveStatic?: HonoServeStatic): void {
  if (serveStatic)
    app.use(
      '/static/*',
      etag(),
      serveStatic({
        root: PUBLIC_DIR,
        rewriteRequestPath: (path) => path.replace(/^\/static/, ''),
        onFound: (_path, c) => c.header('Cache-Control', STATIC_CACHE_CONTROL),
      }),
    );

  app.get('/session/start', async (c) => {
    await setSignedCookie(c, 'session', JSON.stringify(SESSION_DATA), SESSION_SECRET, { httpOnly: true, sameSite: 'Lax', path: '/' });
    return c.json({ token: '' });
  });
  app.get('/session', async (c) => {
    const value = await getSignedCookie(c, SESSION_SECRET, 'session');
    if (!value) return c.json({ title: 'Unauthorized', status: 401 }, 401);
    return c.json(JSON.parse(value));
  });

  app.use('/api/*', cors({ origin: CORS_ORIGIN, allowMethods: [...CORS_METHODS], allowHeaders: ['content-type'], maxAge: CORS_MAX_AGE }));
  app.get('/api/data', (c) => c.json({ ok: true }));
  app.post('/api/data', (c) => c.json({ ok: true }));

  app.get('/secure', secureHeaders(), (c) => c.json({ ok: true }));

  app.post('/form', csrf(), async (c) => {
    const form = await c.req.parseBody();
    return c.text(`ok ${form.name}`);
  });
}
