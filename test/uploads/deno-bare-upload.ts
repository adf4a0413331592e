// deno run -A test/uploads/deno-bare-upload.ts: Deno.serve alone, writing each request body to
// disk with examples/uploads's disk store and no Rove. upload-memory.test.ts compares Deno's own
// memory growth under a large upload with Rove's.
import { diskStore } from '../../examples/uploads/disk-store.ts';

declare const Deno: {
  env: { get(name: string): string | undefined };
  serve(options: { port: number; hostname: string; onListen?: () => void }, handler: (request: Request) => Promise<Response>): unknown;
};

const disk = diskStore(Deno.env.get('UPLOAD_DIR')!);
Deno.serve({ port: Number(Deno.env.get('PORT')), hostname: '127.0.0.1', onListen: () => console.log('listening') }, async (request) => {
  if (request.method !== 'POST') return new Response('ok');
  const { size } = await disk.put(crypto.randomUUID(), request.body!, '');
  return Response.json({ files: [{ size }] }, { status: 201 });
});
