import { getConnInfo, serveStatic } from 'hono/deno';
import { app } from './app.ts';
import { addAppLayer } from './app-layer.ts';
import { dbRoutesFromEnv } from './db.ts';
import { addRateLimited } from './rate-limit.ts';

dbRoutesFromEnv(app, (n) => Deno.env.get(n));

addAppLayer(app, serveStatic);
// `deno serve` passes the ServeHandlerInfo as the second argument: Hono's c.env, with remoteAddr.
addRateLimited(app, (c) => getConnInfo(c).remote.address);

export default { fetch: app.fetch };
