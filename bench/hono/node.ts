import { serve } from '@hono/node-server';
import { getConnInfo } from '@hono/node-server/conninfo';
import { serveStatic } from '@hono/node-server/serve-static';
import { app } from './app.ts';
import { addAppLayer } from './app-layer.ts';
import { dbRoutesFromEnv } from './db.ts';
import { addRateLimited } from './rate-limit.ts';

dbRoutesFromEnv(app, (n) => process.env[n]);

addAppLayer(app, serveStatic);
addRateLimited(app, (c) => getConnInfo(c).remote.address);

serve({ fetch: app.fetch, port: Number(process.env.PORT ?? 8000), hostname: process.env.HOST ?? '127.0.0.1' });
