// The two-route Hono app (bench/size/hono.ts) on Deno, Hono's way: Deno.serve.
import app from '../../size/hono.ts';

Deno.serve({ port: Number(Deno.env.get('PORT') ?? 8000), hostname: Deno.env.get('HOST') ?? '127.0.0.1' }, app.fetch);
