import { getConnInfo, serveStatic } from 'hono/deno';
import { app } from './app.ts';
import { addAppLayer } from './app-layer.ts';
import { dbRoutesFromEnv } from './db.ts';
import { addRateLimited } from './rate-limit.ts';

dbRoutesFromEnv(app, (n) => Deno.env.get(n));

addAppLayer(app, serveStatic);
addRateLimited(app, (c) => getConnInfo(c).remote.address);

Deno.serve({ port: Number(Deno.env.get('PORT') ?? 8000), hostname: Deno.env.get('HOST') ?? '127.0.0.1' }, app.fetch);
