import { sseResponse } from './raw-web.ts';

declare const WebSocketPair: new () => { 0: WebSocket; 1: WebSocket & { accept(): void } };

export default {
  fetch(request: Request): Response {
    const path = new URL(request.url).pathname;
    if (path === '/sse') return sseResponse();
    if (path === '/ws') {
      const pair = new WebSocketPair();
      const server = pair[1];
      server.accept();
      server.addEventListener('message', (event) => server.send(event.data));
      return new Response(null, { status: 101, webSocket: pair[0] } as ResponseInit);
    }
    return new Response('ok');
  },
};
