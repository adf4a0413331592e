// rove/node/websocket: WebSockets on Node, through the `ws` package (the handshake, frames,
// ping/pong and the size limit while reading). Opt-in, as `serve(app, { webSockets })`: rove/node
// never imports this file, so an app without WebSockets neither loads nor bundles `ws`. Even with
// it, `ws` loads on the first upgrade (a bundler inlines it all the same).
import type { IncomingMessage } from 'node:http';
import type { Duplex } from 'node:stream';
import type { WebSocket, WebSocketServer } from 'ws';
import type { RawSocket, Upgrade } from '../../src/websocket/protocol.ts';
import type { OpenSockets } from '../shared/websockets.ts';

type WsModule = typeof import('ws');
let loading: Promise<WsModule> | undefined;
// One server per message size limit: ws reads maxPayload from its server's options.
const servers = new Map<number, WebSocketServer>();
const chosen = new WeakMap<IncomingMessage, Upgrade>();

function serverFor(ws: WsModule, maxPayload: number): WebSocketServer {
  let wss = servers.get(maxPayload);
  if (wss !== undefined) return wss;
  wss = new ws.WebSocketServer({
    noServer: true,
    clientTracking: false,
    perMessageDeflate: false, // compression costs memory per socket and has a history of bombs: off
    maxPayload,
    handleProtocols: (_offered, request) => chosen.get(request)?.protocol ?? false,
  });
  // The 101 carries the headers the app set before the upgrade (cookies, for one).
  wss.on('headers', (lines, request) => {
    const headers = chosen.get(request)?.headers;
    if (headers === undefined) return;
    for (const [name, value] of headers) {
      if (name === 'content-type' || name === 'content-length') continue;
      lines.push(`${name}: ${value}`);
    }
  });
  servers.set(maxPayload, wss);
  return wss;
}

/** What `serve(app, { webSockets })` takes on Node: the code that completes a WebSocket route's upgrade. */
export interface NodeWebSockets {
  readonly kind: 'rove:node-websockets';
  /** Complete the upgrade a route asked for on a socket node:http handed over. */
  upgrade(upgrade: Upgrade, incoming: IncomingMessage, socket: Duplex, head: Buffer, open: OpenSockets): Promise<void>;
}

/**
 * WebSockets for `serve()` on Node, through the `ws` package. Deno, Bun and Workers have their
 * own and need nothing passed.
 *
 * @example
 * import { serve } from 'rove/node';
 * import { webSockets } from 'rove/node/websocket';
 * serve(app, { port: 8000, webSockets });
 * // or, on a server of your own:
 * server.on('upgrade', toNodeUpgradeListener(app, webSockets));
 */
export const webSockets: NodeWebSockets = { kind: 'rove:node-websockets', upgrade: upgradeNode };

/** Complete the upgrade a route asked for on a socket node:http handed over. */
async function upgradeNode(upgrade: Upgrade, incoming: IncomingMessage, socket: Duplex, head: Buffer, open: OpenSockets): Promise<void> {
  const ws = await (loading ??= import('ws'));
  if (socket.destroyed) return;
  chosen.set(incoming, upgrade);
  serverFor(ws, upgrade.maxMessageSize).handleUpgrade(incoming, socket, head, (client) => wire(client, socket, upgrade, open));
}

function wire(client: WebSocket, socket: Duplex, upgrade: Upgrade, open: OpenSockets): void {
  const raw: RawSocket = {
    send(data) {
      // No write callback: ws would call it for every frame. The socket's 'drain' below says when a full queue emptied.
      if (client.readyState === 1) client.send(data);
    },
    close: (code, reason) => client.close(code, reason),
    terminate: () => client.terminate(),
    buffered: () => client.bufferedAmount,
    ping: () => {
      if (client.readyState === 1) client.ping();
    },
    drainEvents: true,
    nativeIdle: false,
  };
  const sink = upgrade.accept(raw);
  // ws writes its frames straight to this socket (no compression, no Blobs): its drain is the queue's.
  socket.on('drain', () => sink.drained());
  open.add(sink, () => client.terminate());
  client.on('message', (data, binary) => {
    const buf = data as Buffer;
    sink.message(binary ? new Uint8Array(buf.buffer, buf.byteOffset, buf.byteLength) : buf.toString());
  });
  client.on('pong', () => sink.activity());
  client.on('error', (error: Error & { code?: string }) => {
    // A peer breaking the protocol (too big, bad UTF-8, bad frame) is told by the close code ws sends.
    if (typeof error.code !== 'string' || !error.code.startsWith('WS_ERR_')) sink.error(error);
  });
  client.on('close', (code, reason) => {
    open.delete(sink);
    sink.closed(code, reason.toString());
  });
}
