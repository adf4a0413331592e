// The two-route Hono app (bench/size/hono.ts) on Node, Hono's way: @hono/node-server.
import { serve } from '@hono/node-server';
import app from '../../size/hono.ts';

serve({ fetch: app.fetch, port: Number(process.env.PORT ?? 8000), hostname: process.env.HOST ?? '127.0.0.1' });
