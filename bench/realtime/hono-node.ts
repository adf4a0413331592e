// Hono on Node has no built-in WebSocket helper (it needs @hono/node-ws): SSE only.
import { serve } from '@hono/node-server';
import { makeApp } from './hono-app.ts';

serve({ fetch: makeApp().fetch, port: Number(process.env.PORT ?? 8000), hostname: process.env.HOST ?? '127.0.0.1' });
