import { dbRoutesFromEnv } from './db.ts';
import { handle } from './handler.ts';

Bun.serve({ port: Number(process.env.PORT ?? 8000), hostname: process.env.HOST ?? '127.0.0.1', fetch: dbRoutesFromEnv(handle, (n) => process.env[n]) });
