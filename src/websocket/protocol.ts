// What passes between rove/websocket (in the app) and the runtime adapters.
// The route handler answers with a placeholder Response carrying an `Upgrade`
// under a global symbol; the adapter that sees it performs the runtime's own
// handshake and wires the runtime's socket to `accept`. A global symbol (not a
// module-level WeakMap) so that two copies of the package still understand each other.

/** The property of the placeholder Response that carries the upgrade. */
export const UPGRADE: unique symbol = Symbol.for('rove.websocket.upgrade') as never;

/** A finished handshake's socket, as each adapter exposes it to the session. */
export interface RawSocket {
  /** Queue a frame; never throws (a closed socket drops it). */
  send(data: string | Uint8Array): void;
  /** Start the closing handshake. */
  close(code: number, reason: string): void;
  /** Drop the connection at once, without a closing handshake. */
  terminate(): void;
  /** Bytes queued and not yet written; 0 where the runtime does not say. */
  buffered(): number;
  /** Send a ping, where the runtime lets the server do so. */
  ping?(): void;
  /** True when the adapter calls `drained()` itself; then the session polls `buffered()` only rarely, as a fallback. */
  readonly drainEvents: boolean;
  /** True when the runtime runs the idle timeout itself (Deno's ping/pong). */
  readonly nativeIdle: boolean;
}

/** What the adapter tells the session about its socket. */
export interface SocketEvents {
  message(data: string | Uint8Array): void;
  /** Anything heard from the peer besides a message (a pong): it is alive. */
  activity(): void;
  /** The socket is writable again after `buffered()` was high (adapters with `drainEvents`). */
  drained(): void;
  /** The connection is closed (by either side): 1005 with no code, 1006 when it dropped. */
  closed(code: number, reason: string): void;
  error(error: unknown): void;
  /** The server is shutting down: close with 1001. */
  shutdown(): void;
}

/** The upgrade a placeholder Response carries to the adapter. */
export interface Upgrade {
  /** Frames larger than this (bytes) close the socket with 1009; adapters that can enforce it while reading do. */
  readonly maxMessageSize: number;
  /** Seconds of silence before the socket is closed (0: never); for runtimes with a native idle timeout. */
  readonly idleTimeoutMs: number;
  /** The subprotocol chosen from the client's `Sec-WebSocket-Protocol`, if any. */
  readonly protocol: string | undefined;
  /** Headers to add to the 101 response (set through `c.header()` before the upgrade). */
  readonly headers: Headers;
  /** Called by the adapter once the handshake is done; returns where the adapter sends the socket's events. */
  accept(socket: RawSocket): SocketEvents;
}

/** The upgrade a response asks for, if any. One property read: adapters call it on every response. */
export function upgradeOf(res: Response): Upgrade | undefined {
  return (res as unknown as Record<symbol, Upgrade | undefined>)[UPGRADE];
}
