import { sseResponse } from './raw-web.ts';

// types/runtimes.d.ts declares only what the other entries use.
const upgradeWebSocket = (Deno as unknown as { upgradeWebSocket(r: Request): { socket: WebSocket; response: Response } }).upgradeWebSocket;

export function handler(request: Request): Response {
  const path = new URL(request.url).pathname;
  if (path === '/sse') return sseResponse();
  if (path === '/ws') {
    const { socket, response } = upgradeWebSocket(request);
    socket.onmessage = (event: MessageEvent) => socket.send(event.data);
    return response;
  }
  return new Response('ok');
}
