// The app-layer scenarios in idiomatic Hono: hono/etag in front of the runtime's
// serveStatic, a signed cookie (hono/cookie, HMAC) holding the session's JSON,
// hono/cors, hono/secure-headers defaults, and hono/csrf (an Origin check) with the token
// check a Hono user writes, since Hono has no CSRF tokens: a double-submit token kept in a
// signed cookie, compared with the form's _csrf. Rove's csrf-post checks the Origin and a
// token bound to the session, so both sides verify one signed or sealed cookie per post.
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
    const token = crypto.randomUUID();
    await setSignedCookie(c, 'csrf', token, SESSION_SECRET, { httpOnly: true, sameSite: 'Lax', path: '/' });
    return c.json({ token });
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
    const token = await getSignedCookie(c, SESSION_SECRET, 'csrf');
    const form = await c.req.parseBody();
    if (!token || form._csrf !== token) return c.json({ title: 'Forbidden', status: 403 }, 403);
    return c.text(`ok ${form.name}`);
  });
}
