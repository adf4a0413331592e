import { getConnInfo, serveStatic } from 'hono/bun';
import { app } from './app.ts';
import { addAppLayer } from './app-layer.ts';
import { dbRoutesFromEnv } from './db.ts';
import { addRateLimited } from './rate-limit.ts';

dbRoutesFromEnv(app, (n) => process.env[n]);

addAppLayer(app, serveStatic);
addRateLimited(app, (c) => getConnInfo(c).remote.address);

Bun.serve({ port: Number(process.env.PORT ?? 8000), hostname: process.env.HOST ?? '127.0.0.1', fetch: app.fetch });
