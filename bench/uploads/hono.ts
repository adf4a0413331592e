// The upload bench's Hono server: POST /upload reads the body with c.req.parseBody() (which holds
// it in memory, as FormData) and writes each file to disk. Runs on Node, Deno and Bun.
import { Hono } from 'hono';
import { runtimeName, writeStream } from './disk.ts';

const env = (globalThis as { process?: { env: Record<string, string | undefined> } }).process?.env ?? {};
const dir = env.UPLOAD_DIR!;
const app = new Hono();
app.get('/', (c) => c.text('ok'));
app.post('/upload', async (c) => {
  const body = await c.req.parseBody({ all: true });
  let size = 0;
  for (const value of Object.values(body).flat()) if (value instanceof File) size += await writeStream(dir, value.stream());
  return c.json({ size }, 201);
});

const port = Number(env.PORT);
const runtime = runtimeName();
const g = globalThis as unknown as {
  Deno: { serve(o: { port: number; hostname: string }, h: (r: Request) => Response | Promise<Response>): unknown };
  Bun: { serve(o: { port: number; hostname: string; maxRequestBodySize: number; fetch: (r: Request) => Response | Promise<Response> }): unknown };
};
if (runtime === 'node') (await import('@hono/node-server')).serve({ fetch: app.fetch, port, hostname: '127.0.0.1' });
else if (runtime === 'deno') g.Deno.serve({ port, hostname: '127.0.0.1' }, app.fetch);
else g.Bun.serve({ port, hostname: '127.0.0.1', maxRequestBodySize: 2 ** 40, fetch: app.fetch });
