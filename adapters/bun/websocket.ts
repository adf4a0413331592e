// WebSockets on Bun: server.upgrade() and the `websocket` handlers of Bun.serve,
// which dispatch to each socket's session.
import { HttpError } from '../../src/core/errors.ts';
import { errorResponse } from '../../src/core/problem.ts';
import type { SocketEvents, Upgrade } from '../../src/websocket/protocol.ts';
import type { OpenSockets } from '../shared/websockets.ts';

/** The part of Bun's ServerWebSocket used here. */
interface BunSocket {
  data: BunSocketData;
  readyState: number;
  send(data: string | Uint8Array): number;
  close(code?: number, reason?: string): void;
  terminate(): void;
  ping(): void;
  getBufferedAmount(): number;
}
interface BunSocketData {
  upgrade: Upgrade;
  sink?: SocketEvents;
}
interface Upgrader {
  upgrade(request: Request, options: { data: BunSocketData; headers?: HeadersInit }): boolean;
}

// Bun takes one payload limit per server; each route's own (64 KiB by default) is checked per message.
const MAX_PAYLOAD = 16 * 1024 * 1024;

/** The `websocket` option of Bun.serve for an app served with rove/bun. */
export function bunWebSocketHandlers(open: OpenSockets) {
  return {
    maxPayloadLength: MAX_PAYLOAD,
    // The session runs the idle timeout (with pings) per route.
    idleTimeout: 0,
    sendPings: false,
    perMessageDeflate: false,
    // Queued bytes are the session's business (highWaterMark, maxBufferedAmount): never drop silently.
    backpressureLimit: 2 ** 31 - 1,
    closeOnBackpressureLimit: false,
    open(ws: BunSocket) {
      const sink = ws.data.upgrade.accept({
        // Bun drops a send on a closed socket (it returns 0): no state check per message.
        send: (data) => void ws.send(data),
        close: (code, reason) => ws.close(code, reason),
        terminate: () => ws.terminate(),
        buffered: () => ws.getBufferedAmount(),
        ping: () => {
          if (ws.readyState === 1) ws.ping();
        },
        drainEvents: true,
        nativeIdle: false,
      });
      ws.data.sink = sink;
      open.add(sink, () => ws.terminate());
    },
    message(ws: BunSocket, message: string | Uint8Array) {
      ws.data.sink?.message(typeof message === 'string' ? message : new Uint8Array(message.buffer, message.byteOffset, message.byteLength));
    },
    drain(ws: BunSocket) {
      ws.data.sink?.drained();
    },
    pong(ws: BunSocket) {
      ws.data.sink?.activity();
    },
    close(ws: BunSocket, code: number, reason: string) {
      const sink = ws.data.sink;
      if (sink === undefined) return;
      open.delete(sink);
      sink.closed(code, reason);
    },
  };
}

/** Perform a route's upgrade; `undefined` tells Bun the socket is taken. */
export function upgradeBun(upgrade: Upgrade, request: Request, server: Upgrader): Response | undefined {
  const headers = new Headers();
  for (const [name, value] of upgrade.headers) if (name !== 'content-type' && name !== 'content-length') headers.append(name, value);
  if (upgrade.protocol !== undefined) headers.set('sec-websocket-protocol', upgrade.protocol);
  if (server.upgrade(request, { data: { upgrade }, headers })) return undefined;
  return errorResponse(new HttpError(400, 'WebSocket: the upgrade failed'));
}
