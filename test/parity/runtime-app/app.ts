// A deliberately runtime-dependent app for `rove parity`'s own tests: /runtime answers `typeof Deno`.
// JSON answers only: c.text() has a difference of its own on Bun (see docs/parity.md).
import { App } from 'rove';

export const app = new App();

app.get('/', (c) => c.json({ same: 'everywhere' }));

// Differs by design: "object" on Deno and deno serve, "undefined" on Node, Bun and Workers.
app.get('/runtime', (c) => c.json({ deno: typeof (globalThis as { Deno?: unknown }).Deno }));

// Volatile values that parity masks: a request id (header and body), a session cookie.
app.get('/volatile', (c) => {
  const id = crypto.randomUUID();
  c.header('x-request-id', id);
  return c.json({ id, at: new Date().toISOString() });
});

app.post('/login', (c) => {
  const token = [...crypto.getRandomValues(new Uint8Array(16))].map((b) => b.toString(16).padStart(2, '0')).join('');
  c.header('set-cookie', `sid=${token}; Path=/; HttpOnly; SameSite=Lax`);
  return c.json({ ok: true });
});

// Whether the cookie jar carried the session: the answer is the same only if every runtime got it back.
app.get('/me', (c) => c.json({ signedIn: /(?:^|;\s*)sid=[0-9a-f]{32}/.test(c.req.header('cookie') ?? '') }));

app.get('/greeting', (c) => c.json({ greeting: (c.env as { GREETING?: string } | undefined)?.GREETING ?? 'none' }));
