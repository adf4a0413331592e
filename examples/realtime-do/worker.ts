// Fan-out on Workers: every client of a room connects to the same Durable Object, which keeps
// the sockets (WebSocket Hibernation API) and sends each message to all of them.
// Run: npm run realtime:do (wrangler dev), then connect two clients to ws://127.0.0.1:8000/room/lobby.
import { App, HttpError } from 'rove';
import { toWorker } from 'rove/cloudflare';
import { originAllowed } from 'rove/websocket';

// The few Durable Object types used here (from @cloudflare/workers-types, which this repo does not install).
interface DurableObjectState {
  acceptWebSocket(ws: WebSocket): void;
  getWebSockets(): WebSocket[];
}
interface DurableObjectNamespace {
  idFromName(name: string): unknown;
  get(id: unknown): { fetch(request: Request): Promise<Response> };
}
declare const WebSocketPair: new () => { 0: WebSocket; 1: WebSocket };

type Env = { Bindings: { ROOMS: DurableObjectNamespace } };

export const app = new App<Env>();
app.get('/', (c) => c.text('rove realtime fan-out: WebSocket /room/:name\n'));
app.get('/room/:name', (c) => {
  // The Durable Object answers the upgrade: check what upgradeWebSocket would have checked first.
  if (c.req.header('upgrade')?.toLowerCase() !== 'websocket') throw new HttpError(426, 'WebSocket: this route only answers a WebSocket upgrade');
  if (!originAllowed(c.req.header('origin'), c, undefined)) throw new HttpError(403, `WebSocket: origin ${c.req.header('origin')} is not allowed`);
  const name = c.req.param('name') ?? '';
  if (!/^[\w-]{1,64}$/.test(name)) throw new HttpError(400, 'Room names are 1 to 64 letters, digits, _ or -');
  return c.env.ROOMS.get(c.env.ROOMS.idFromName(name)).fetch(c.req.raw);
});

export default toWorker(app);

const MAX_MESSAGE = 65_536;

/** One room: all its sockets live here, whichever Worker isolate their upgrade came through. */
export class Room {
  constructor(private readonly state: DurableObjectState) {}

  fetch(_request: Request): Response {
    const pair = new WebSocketPair();
    // Hibernatable: the object may be evicted between messages and the sockets stay open.
    this.state.acceptWebSocket(pair[1]);
    return new Response(null, { status: 101, webSocket: pair[0] } as ResponseInit);
  }

  webSocketMessage(ws: WebSocket, message: string | ArrayBuffer): void {
    const size = typeof message === 'string' ? message.length : message.byteLength;
    if (size > MAX_MESSAGE) {
      ws.close(1009, 'message too big');
      return;
    }
    for (const peer of this.state.getWebSockets()) {
      try {
        peer.send(message);
      } catch {
        // a peer that is closing: its close event cleans up
      }
    }
  }

  webSocketClose(ws: WebSocket, code: number, reason: string): void {
    try {
      ws.close(code === 1005 || code === 1006 ? 1000 : code, reason);
    } catch {
      // already closed
    }
  }
}
