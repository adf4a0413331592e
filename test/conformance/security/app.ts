// The security fixture: sessions (cookie and memory stores), CSRF, CORS, Basic auth and JWT,
// so security.test.ts can check them over real HTTP on every runtime.
import { App, type Context } from 'rove';
import { basicAuth, jwt, jwtPayload } from 'rove/auth';
import { cors } from 'rove/cors';
import { csrf, csrfToken } from 'rove/csrf';
import { ipRestriction } from 'rove/ip';
import { getSession, memoryStore, session } from 'rove/session';

export const SESSION_SECRET = 'conformance-session-secret-0123456789';
export const JWT_SECRET = 'conformance-jwt-secret';
export const ALLOWED_ORIGIN = 'https://app.example';

/** One login flow under `prefix`, with the session kept by `store`. */
function accounts(app: App, prefix: string, options: Parameters<typeof session>[0]): void {
  app.use(prefix, session(options), csrf());
  app.get(`${prefix}/login`, async (c) => {
    const token = await csrfToken(c);
    return c.html(`<form method="post" action="${prefix}/login"><input type="hidden" name="_csrf" value="${token}"><input name="name"></form>`);
  });
  app.post(`${prefix}/login`, async (c) => {
    const form = await c.req.form();
    await getSession(c).regenerate();
    await getSession(c).set('name', String(form.name ?? ''));
    return c.redirect('/', 303);
  });
  app.get(`${prefix}/me`, async (c) => {
    const name = await getSession(c).get<string>('name');
    return name === undefined ? c.json({ error: 'not logged in' }, 401) : c.json({ name });
  });
  app.post(`${prefix}/logout`, async (c) => {
    await getSession(c).destroy();
    return c.redirect('/', 303);
  });
  // Stores any form fields (`__proto__` included) and answers the whole session.
  app.post(`${prefix}/put`, async (c) => {
    const form = await c.req.form();
    for (const key of Object.keys(form)) if (key !== '_csrf') await getSession(c).set(key, form[key]);
    return c.json(await getSession(c).all());
  });
  app.get(`${prefix}/all`, async (c) => c.json(await getSession(c).all()));
  app.get(`${prefix}/untouched`, (c) => c.text('no session work'));
}

export function makeApp(): App {
  const app = new App();
  app.get('/', (c) => c.text('ok'));
  accounts(app, '/cookie', { keys: [SESSION_SECRET], name: 'c.sid' });
  accounts(app, '/memory', { keys: [SESSION_SECRET], name: 'm.sid', store: memoryStore({ maxEntries: 1000 }) });

  app.use('/api', cors({ origin: ALLOWED_ORIGIN, credentials: true, maxAge: 600, exposeHeaders: ['ETag'] }));
  app.get('/api/notes', (c) => c.json([]));
  app.post('/api/notes', jwt({ secret: JWT_SECRET }), async (c: Context) => c.json({ by: jwtPayload(c).sub, note: await c.req.json() }, 201));

  app.use('/admin', basicAuth({ username: 'admin', password: 'secret', realm: 'Rove admin' }));
  app.get('/admin', (c) => c.text('admin page'));

  // Loopback is let in; an intranet-only page refuses it (on Workers the address is CF-Connecting-IP).
  app.use('/local', ipRestriction({ allow: ['127.0.0.1', '::1'] }));
  app.get('/local', (c) => c.text(`hello ${c.req.ip}`));
  app.use('/intranet', ipRestriction({ allow: ['10.0.0.0/8'], deny: ['10.6.6.6'] }));
  app.get('/intranet', (c) => c.text('intranet'));
  return app;
}
