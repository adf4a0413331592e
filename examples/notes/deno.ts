// Deno: npm run notes:deno (PORT, HOST, SESSION_SECRET, ADMIN_PASSWORD, JWT_SECRET, ALLOWED_ORIGIN).
// serve() hands the process environment to the app as c.env, where app.ts reads its settings.
import { fileURLToPath } from 'node:url';
import { serve } from 'rove/deno';
import { memoryStore } from 'rove/session';
import { createNotesApp } from './app.ts';

const app = createNotesApp({
  store: memoryStore(),
  compress: true,
  publicDir: fileURLToPath(new URL('./public', import.meta.url)),
});

serve(app, { port: Number(Deno.env.get('PORT') ?? 8000), hostname: Deno.env.get('HOST') ?? '127.0.0.1' });
