import { serveStatic } from 'hono/deno';
import { app } from './app.ts';
import { addAppLayer } from './app-layer.ts';

addAppLayer(app, serveStatic);

export default { fetch: app.fetch };
