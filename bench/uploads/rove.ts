// The upload bench's Rove server: POST /upload streams each file part to disk (rove/uploads).
// Runs on Node, Deno and Bun (PORT, UPLOAD_DIR).
import { App } from 'rove';
import { parts } from 'rove/uploads';
import { runtimeName, writeStream } from './disk.ts';

const env = (globalThis as { process?: { env: Record<string, string | undefined> } }).process?.env ?? {};
const dir = env.UPLOAD_DIR!;
const app = new App();
app.get('/', (c) => c.text('ok'));
app.post('/upload', async (c) => {
  let size = 0;
  for await (const part of parts(c, { maxFileSize: 2 ** 40, maxTotalSize: 2 ** 40 })) if (part.kind === 'file') size += await writeStream(dir, part.body);
  return c.json({ size }, 201);
});

const options = { port: Number(env.PORT), hostname: '127.0.0.1' };
const runtime = runtimeName();
if (runtime === 'node') (await import('rove/node')).serve(app, options);
else if (runtime === 'deno') (await import('rove/deno')).serve(app, options);
else (await import('rove/bun')).serve(app, { ...options, maxRequestBodySize: 2 ** 40 });
