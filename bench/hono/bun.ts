import { app } from './app.ts';
import { dbRoutesFromEnv } from './db.ts';

dbRoutesFromEnv(app, (n) => process.env[n]);

Bun.serve({ port: Number(process.env.PORT ?? 8000), hostname: process.env.HOST ?? '127.0.0.1', fetch: app.fetch });
