import { serveStatic } from 'hono/deno';
import { app } from './app.ts';
import { addAppLayer } from './app-layer.ts';

addAppLayer(app, serveStatic);

Deno.serve({ port: Number(Deno.env.get('PORT') ?? 8000), hostname: Deno.env.get('HOST') ?? '127.0.0.1' }, app.fetch);
