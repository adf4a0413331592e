/**
 * rove/websocket: one WebSocket API for Node, Deno, Bun, Deno Deploy and Workers.
 * `upgradeWebSocket(factory)` is a route handler: it checks the handshake and the
 * page's origin, then answers a marked Response; the adapter serving the app performs
 * the upgrade with its runtime's own mechanism (see docs/realtime.md) and feeds the
 * socket to your handlers. Nothing here touches a runtime.
 */
import type { Context } from '../core/context.ts';
import { HttpError } from '../core/errors.ts';
import { type AllowedOrigins, chooseProtocol, hasToken, originAllowed, validKey } from './handshake.ts';
import { type RawSocket, UPGRADE, type Upgrade } from './protocol.ts';
import { Session, type WSEvents } from './session.ts';

export { type AllowedOrigins, originAllowed } from './handshake.ts';
export type { CloseInfo, WSContext, WSEvents } from './session.ts';

export interface WebSocketOptions {
  /**
   * Pages that may open the socket besides the server's own host: a list of origins
   * (`'https://app.example'`), a function, or `'*'` for any. A request without `Origin`
   * (a non-browser client) is always allowed; any other origin gets a 403 before the upgrade.
   */
  origins?: AllowedOrigins;
  /** Largest message accepted, in bytes (default 64 KiB); a bigger one closes the socket with 1009. */
  maxMessageSize?: number;
  /**
   * Close a socket whose peer has sent nothing, not even a pong, for this long (ms; default 120 000; 0: never).
   * The server pings half-way where it can (Node, Bun; Deno runs its own ping/pong); Workers cannot ping,
   * so there a silent client is closed.
   */
  idleTimeoutMs?: number;
  /** Subprotocols this route speaks; the first one the client offers is chosen. */
  protocols?: readonly string[];
  /** Queued bytes above which `ws.send()` waits for the queue to drain (default 1 MiB). */
  highWaterMark?: number;
  /** Queued bytes at which a client that does not read is closed with 1008 (default 16 MiB). */
  maxBufferedAmount?: number;
}

/** Sockets the adapters are told to keep; for tests and tools. */
export type { RawSocket };

/**
 * A route handler that upgrades to a WebSocket. `factory` runs once per connection,
 * before the upgrade, with the request's context (read params, cookies, `c.get('user')`
 * there; throw an HttpError to refuse). A request that is not an upgrade answers 426.
 *
 * @example
 * import { upgradeWebSocket } from 'rove/websocket';
 * app.get(
 *   '/ws',
 *   upgradeWebSocket((c) => ({
 *     onOpen: (ws) => ws.send('hello'),
 *     onMessage: (data, ws) => ws.send(data),
 *     onClose: ({ code }) => console.log('closed', code),
 *   }), { origins: ['https://app.example'] }),
 * );
 */
export function upgradeWebSocket<C extends Context<any, any> = Context<any, any>>(
  factory: (c: C) => WSEvents | Promise<WSEvents>,
  options: WebSocketOptions = {},
): (c: C) => Promise<Response> {
  const limits = {
    maxMessageSize: options.maxMessageSize ?? 65_536,
    idleTimeoutMs: options.idleTimeoutMs ?? 120_000,
    highWaterMark: options.highWaterMark ?? 1_048_576,
    maxBufferedAmount: options.maxBufferedAmount ?? 16_777_216,
  };
  return async (c) => {
    const req = c.req;
    const origin = req.header('origin');
    const refuse = (status: number, reason: 'not-upgrade' | 'handshake' | 'origin', detail: string, headers?: HeadersInit): never => {
      c.emit('ws:rejected', () => ({ path: c.path, reason, origin }));
      throw new HttpError(status, detail, { headers });
    };
    if (req.method !== 'GET' || !hasToken(req.header('upgrade'), 'websocket') || !hasToken(req.header('connection'), 'upgrade')) {
      refuse(426, 'not-upgrade', 'WebSocket: this route only answers a WebSocket upgrade', { upgrade: 'websocket' });
    }
    if (req.header('sec-websocket-version')?.trim() !== '13') {
      refuse(426, 'handshake', 'WebSocket: only version 13 is spoken', { 'sec-websocket-version': '13' });
    }
    if (!validKey(req.header('sec-websocket-key'))) refuse(400, 'handshake', 'WebSocket: missing or malformed Sec-WebSocket-Key');
    if (!originAllowed(origin, c, options.origins)) refuse(403, 'origin', `WebSocket: origin ${origin} is not allowed`);

    const events = await factory(c);
    const protocol = chooseProtocol(req.header('sec-websocket-protocol'), options.protocols);
    // The placeholder: a helper-built response (so c.header() values ride along) that the adapter replaces.
    const res = c.body(null, 200);
    const upgrade: Upgrade = {
      maxMessageSize: limits.maxMessageSize,
      idleTimeoutMs: limits.idleTimeoutMs,
      protocol,
      get headers() {
        return res.headers;
      },
      accept(raw) {
        const session = new Session(raw, events, c, limits, protocol ?? '');
        session.open();
        return session.sink;
      },
    };
    Object.defineProperty(res, UPGRADE, { value: upgrade });
    return res;
  };
}
