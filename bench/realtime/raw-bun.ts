import { sseResponse } from './raw-web.ts';

// Bun.serve with websocket handlers: types/runtimes.d.ts declares only what the other entries use.
(Bun as unknown as { serve(options: object): unknown }).serve({
  port: Number(Bun.env.PORT ?? 8000),
  hostname: Bun.env.HOST ?? '127.0.0.1',
  fetch(request: Request, server: { upgrade(r: Request): boolean }) {
    const path = new URL(request.url).pathname;
    if (path === '/sse') return sseResponse();
    if (path === '/ws') return server.upgrade(request) ? undefined : new Response('upgrade failed', { status: 400 });
    return new Response('ok');
  },
  websocket: {
    message(ws: { send(m: string | Uint8Array): void }, message: string | Uint8Array) {
      ws.send(message);
    },
  },
});
