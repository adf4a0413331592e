import { serveStatic } from 'hono/deno';
import { app } from './app.ts';
import { addAppLayer } from './app-layer.ts';
import { dbRoutesFromEnv } from './db.ts';

dbRoutesFromEnv(app, (n) => Deno.env.get(n));

addAppLayer(app, serveStatic);

export default { fetch: app.fetch };
