// Bun: npm run notes:bun (PORT, HOST, SESSION_SECRET, ADMIN_PASSWORD, JWT_SECRET, ALLOWED_ORIGIN).
import { fileURLToPath } from 'node:url';
import { serve } from 'rove/bun';
import { memoryStore } from 'rove/session';
import { createNotesApp, notesConfig } from './app.ts';

const app = createNotesApp({
  ...notesConfig(Bun.env),
  store: memoryStore(),
  compress: true,
  publicDir: fileURLToPath(new URL('./public', import.meta.url)),
});

serve(app, { port: Number(Bun.env.PORT ?? 8000), hostname: Bun.env.HOST ?? '127.0.0.1' });
