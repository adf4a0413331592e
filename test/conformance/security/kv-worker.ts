// The security fixture with sessions in Workers KV (binding SESSIONS), for security-kv.test.ts.
import { App } from 'rove';
import { toWorker } from 'rove/cloudflare';
import { csrf, csrfToken } from 'rove/csrf';
import { getSession, type KVNamespaceLike, kvStore, session } from 'rove/session';
import { SESSION_SECRET } from './app.ts';

type Bindings = { SESSIONS: KVNamespaceLike };
const app = new App<{ Bindings: Bindings }>();
app.use(session({ keys: [SESSION_SECRET], name: 'kv.sid', store: kvStore((c) => (c.env as Bindings).SESSIONS) }), csrf());
app.get('/', (c) => c.text('ok'));
app.get('/login', async (c) => c.json({ token: await csrfToken(c) }));
app.post('/login', async (c) => {
  const form = await c.req.form();
  await getSession(c).regenerate();
  await getSession(c).set('name', String(form.name));
  return c.redirect('/', 303);
});
app.get('/me', async (c) => {
  const name = await getSession(c).get<string>('name');
  return name === undefined ? c.json({ error: 'not logged in' }, 401) : c.json({ name });
});
app.post('/logout', async (c) => {
  await getSession(c).destroy();
  return c.redirect('/', 303);
});

export default toWorker(app);
