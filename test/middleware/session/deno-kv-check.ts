// Run by deno-kv-store.test.ts under `deno run --unstable-kv`: the session denoKvStore on a real
// Deno KV (in memory), through session(): a login seen by a second app on the same database, a
// logout that ends it there too, expiry, and the raw store. Prints what it saw as one JSON line.
import { App } from '../../../src/index.ts';
import { denoKvStore, getSession, session } from '../../../src/middleware/session/index.ts';

declare const Deno: { openKv(path?: string): Promise<any>; args: string[] };

const kv = await Deno.openKv(Deno.args[0] ?? ':memory:');
const SECRET = 'deno-kv-session-secret-0123456789abcdef';

// Two apps (two isolates of one deployment) on one database.
function makeApp(name: string, maxAge?: number) {
  const app = new App();
  app.use(session({ keys: [SECRET], store: denoKvStore(kv), ...(maxAge ? { maxAge } : {}) }));
  app.post('/login', async (c) => {
    await getSession(c).regenerate();
    await getSession(c).set('user', `ann@${name}`);
    return c.text('in');
  });
  app.get('/me', async (c) => c.json({ user: (await getSession(c).get('user')) ?? null, on: name }));
  app.post('/logout', async (c) => {
    await getSession(c).destroy();
    return c.text('out');
  });
  return app;
}
const a = makeApp('a');
const b = makeApp('b');

const login = await a.request('/login', { method: 'POST' });
const cookie = login.headers.get('set-cookie')!.split(';')[0]!;
const seenOnB = await (await b.request('/me', { headers: { cookie } })).json();
const keys: string[][] = [];
for await (const entry of kv.list({ prefix: ['rove-session'] })) keys.push(entry.key);
await b.request('/logout', { method: 'POST', headers: { cookie } });
const afterLogout = await (await a.request('/me', { headers: { cookie } })).json();
const keysAfter: string[][] = [];
for await (const entry of kv.list({ prefix: ['rove-session'] })) keysAfter.push(entry.key);

// The store itself: a value expires at its max age even while KV still holds it.
const store = denoKvStore(kv, { prefix: 'raw' });
const c = undefined as never;
await store.set('s1', '{"x":1}', 60, c);
const read = await store.get('s1', c);
await store.set('s2', '{"x":2}', 0.05, c);
await new Promise((r) => setTimeout(r, 80));
const expired = await store.get('s2', c);
await store.delete('s1', c);
const deleted = await store.get('s1', c);
let tooLarge = '';
try {
  await store.set('big', 'x'.repeat(70 * 1024), 60, c);
} catch (e) {
  tooLarge = (e as Error).name;
}

console.log(JSON.stringify({ seenOnB, keys: keys.length, afterLogout, keysAfter: keysAfter.length, read, expired, deleted, tooLarge }));
kv.close();
