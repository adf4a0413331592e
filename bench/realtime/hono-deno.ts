import { upgradeWebSocket } from 'hono/deno';
import { makeApp } from './hono-app.ts';

Deno.serve({ port: Number(Deno.env.get('PORT') ?? 8000), hostname: Deno.env.get('HOST') ?? '127.0.0.1' }, makeApp(upgradeWebSocket).fetch);
