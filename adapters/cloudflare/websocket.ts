// WebSockets on Cloudflare Workers: a WebSocketPair, one end to the client in the 101.
import type { RawSocket, Upgrade } from '../../src/websocket/protocol.ts';
import { upgradeOf } from '../../src/websocket/protocol.ts';

declare const WebSocketPair: new () => { 0: WorkerSocket; 1: WorkerSocket };
interface WorkerSocket extends WebSocket {
  accept(): void;
}

/** The response to send: `res` itself, or, when a WebSocket route asked for it, the 101 with the client's end. */
export function completeWorker(res: Response): Response {
  const upgrade = upgradeOf(res);
  return upgrade === undefined ? res : upgradeWorker(upgrade);
}

function upgradeWorker(upgrade: Upgrade): Response {
  const pair = new WebSocketPair();
  const client = pair[0];
  const server = pair[1];
  server.accept();
  server.binaryType = 'arraybuffer';
  let closing = false;
  const raw: RawSocket = {
    send(data) {
      // workerd throws on a send after close(); a try costs nothing, a readyState read crosses into C++.
      try {
        server.send(data as string | BufferSource); // our bytes never sit on a SharedArrayBuffer
      } catch {
        // closed: dropped
      }
    },
    close(code, reason) {
      closing = true;
      server.close(code, reason);
    },
    terminate() {
      try {
        server.close(1001, 'going away'); // Workers cannot drop a socket without a close frame
      } catch {
        // already closed
      }
    },
    // workerd queues sends without telling how much: nothing to wait for.
    buffered: () => 0,
    drainEvents: false,
    nativeIdle: false,
  };
  const sink = upgrade.accept(raw);
  server.addEventListener('message', (event) => {
    const data = event.data;
    sink.message(typeof data === 'string' ? data : new Uint8Array(data as ArrayBuffer));
  });
  server.addEventListener('close', (event) => {
    // Answer the peer's close frame, which completes the closing handshake.
    if (!closing) {
      try {
        server.close(event.code === 1005 ? 1000 : event.code, event.reason);
      } catch {
        // already closed
      }
    }
    sink.closed(event.code, event.reason);
  });
  server.addEventListener('error', (event) => sink.error((event as ErrorEvent).error ?? new Error('WebSocket error')));
  const headers = new Headers();
  for (const [name, value] of upgrade.headers) if (name !== 'content-type' && name !== 'content-length') headers.append(name, value);
  if (upgrade.protocol !== undefined) headers.set('sec-websocket-protocol', upgrade.protocol);
  return new Response(null, { status: 101, webSocket: client, headers } as ResponseInit);
}
