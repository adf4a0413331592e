// Node: npm run notes:node (PORT, HOST, SESSION_SECRET, ADMIN_PASSWORD, JWT_SECRET, ALLOWED_ORIGIN).
import { fileURLToPath } from 'node:url';
import { serve } from 'rove/node';
import { memoryStore } from 'rove/session';
import { createNotesApp, notesConfig } from './app.ts';

const app = createNotesApp({
  ...notesConfig(process.env),
  store: memoryStore(),
  compress: true,
  publicDir: fileURLToPath(new URL('./public', import.meta.url)),
});

serve(app, { port: Number(process.env.PORT ?? 8000), hostname: process.env.HOST ?? '127.0.0.1' });
