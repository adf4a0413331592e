// The upload bench's bare server, no framework and no multipart parsing: the whole request body
// streamed to disk with the same writer, the ceiling for the runtime. Node, Deno and Bun.
import { runtimeName, writeStream } from './disk.ts';

const env = (globalThis as { process?: { env: Record<string, string | undefined> } }).process?.env ?? {};
const dir = env.UPLOAD_DIR!;
const port = Number(env.PORT);

async function handle(request: Request): Promise<Response> {
  if (request.method !== 'POST') return new Response('ok');
  const size = await writeStream(dir, request.body!);
  // The body is the whole multipart message; the bench checks the file's size, so answer that.
  return Response.json({ size: size - Number(request.headers.get('x-framing-bytes') ?? 0) }, { status: 201 });
}

const runtime = runtimeName();
const g = globalThis as unknown as {
  Deno: { serve(o: { port: number; hostname: string }, h: (r: Request) => Promise<Response>): unknown };
  Bun: { serve(o: { port: number; hostname: string; maxRequestBodySize: number; fetch: (r: Request) => Promise<Response> }): unknown };
};
if (runtime === 'deno') g.Deno.serve({ port, hostname: '127.0.0.1' }, handle);
else if (runtime === 'bun') g.Bun.serve({ port, hostname: '127.0.0.1', maxRequestBodySize: 2 ** 40, fetch: handle });
else {
  const { createServer } = await import('node:http');
  const { Readable } = await import('node:stream');
  createServer(async (req, res) => {
    const request = new Request(`http://127.0.0.1${req.url}`, {
      method: req.method,
      headers: req.headers as Record<string, string>,
      ...(req.method === 'POST' ? { body: Readable.toWeb(req) as ReadableStream<Uint8Array>, duplex: 'half' } : {}),
    } as RequestInit);
    const answer = await handle(request);
    res.writeHead(answer.status, { 'content-type': 'application/json' }).end(await answer.text());
  }).listen(port, '127.0.0.1');
}
