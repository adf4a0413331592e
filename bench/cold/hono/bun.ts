// The two-route Hono app (bench/size/hono.ts) on Bun, Hono's way: Bun.serve.
import app from '../../size/hono.ts';

Bun.serve({ port: Number(Bun.env.PORT ?? 8000), hostname: Bun.env.HOST ?? '127.0.0.1', fetch: app.fetch });
