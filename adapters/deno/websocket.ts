// WebSockets on Deno and Deno Deploy: Deno.upgradeWebSocket does the handshake
// and runs the idle timeout with its own ping/pong.
import type { ServerBinding } from '../../src/core/app-types.ts';
import type { Context, ExecutionContext } from '../../src/core/context.ts';
import { HttpError } from '../../src/core/errors.ts';
import { errorResponse } from '../../src/core/problem.ts';
import { type RawSocket, type SocketEvents, type Upgrade, upgradeOf } from '../../src/websocket/protocol.ts';
import { checkUnlessBuilt } from '../shared/checked-response.ts';
import type { OpenSockets } from '../shared/websockets.ts';

declare const Deno: {
  upgradeWebSocket(request: Request, options: { protocol?: string; idleTimeout?: number }): { socket: WebSocket; response: Response };
};

// The Deno servers of this process, by the ExecutionContext each passes to app.handle, with the
// open sockets each closes at shutdown (null: `deno serve`, whose shutdown is Deno's own).
// One app may be served more than once, and is bound once: the context tells the servers apart.
const servers = new WeakMap<ExecutionContext, OpenSockets | null>();

/**
 * The `finish` of a Deno binding, for the server that passes `ctx` to `app.handle`: it checks the
 * headers (Deno 2.9 panics, and the process exits, on a control character in a response header
 * value) and turns a WebSocket route's answer into Deno's 101, with the socket kept in `open`.
 * Every Deno server of an app gets the same hook.
 *
 * @example
 * app.bind({ finish: denoFinish(ctx, sockets) });
 */
export function denoFinish(ctx: ExecutionContext, open: OpenSockets | null): NonNullable<ServerBinding['finish']> {
  servers.set(ctx, open);
  return finishDeno;
}

/**
 * The response to send: Deno's 101 for an upgrade that came through one of the servers above.
 * Any other request (`app.request`, a Request built in code) gets the route's placeholder, as on
 * an unbound app: Deno would answer it with a 101 that no socket stands behind.
 */
function finishDeno(res: Response, c: Context<any, any>): Response {
  checkUnlessBuilt(res);
  const upgrade = upgradeOf(res);
  if (upgrade === undefined) return res;
  const open = servers.get(c.executionCtx);
  return open === undefined ? res : upgradeDeno(upgrade, c.req.raw, open ?? undefined);
}

function upgradeDeno(upgrade: Upgrade, request: Request, open: OpenSockets | undefined): Response {
  let socket: WebSocket;
  let response: Response;
  try {
    // Not Deno's `protocol` option: Deno 2.9 splits the offer at ", " only, and refuses "a,b".
    ({ socket, response } = Deno.upgradeWebSocket(request, { idleTimeout: Math.ceil(upgrade.idleTimeoutMs / 1000) }));
  } catch (error) {
    // The core checked the handshake; whatever Deno still refuses is the client's fault.
    return errorResponse(new HttpError(400, `WebSocket: ${(error as Error).message}`));
  }
  copyHeaders(upgrade.headers, response);
  if (upgrade.protocol !== undefined) response.headers.set('sec-websocket-protocol', upgrade.protocol);
  socket.binaryType = 'arraybuffer';
  let sink: SocketEvents | undefined;
  const raw: RawSocket = {
    // Deno's own send, bound: it drops a frame on a closing or closed socket and throws only while
    // connecting, which cannot be (the session exists from 'open' on). Our bytes never sit on a
    // SharedArrayBuffer, the one other thing it refuses.
    send: socket.send.bind(socket) as RawSocket['send'],
    close: (code, reason) => socket.close(code, reason),
    // Deno has no abort for a socket: a close without waiting is the nearest.
    terminate: () => socket.close(),
    buffered: () => socket.bufferedAmount,
    drainEvents: false,
    nativeIdle: true,
  };
  socket.onopen = () => {
    sink = upgrade.accept(raw);
    open?.add(sink, () => socket.close());
  };
  // A listener, not `onmessage`: the property wraps the handler in one more call per message.
  socket.addEventListener('message', (event) => {
    const data = event.data;
    sink?.message(typeof data === 'string' ? data : new Uint8Array(data as ArrayBuffer));
  });
  // Deno reports a peer that vanished as an error ("Unexpected EOF") and then a close with code 0:
  // that is a dropped connection (1006), which the close reports; any other error is passed on.
  let failure: unknown;
  socket.onerror = (event) => {
    failure = (event as ErrorEvent).error ?? new Error((event as ErrorEvent).message ?? 'WebSocket error');
  };
  socket.onclose = (event) => {
    if (sink === undefined) return;
    open?.delete(sink);
    const code = event.code === 0 ? 1006 : event.code;
    if (failure !== undefined && code !== 1006) sink.error(failure);
    sink.closed(code, event.reason);
  };
  return response;
}

/** The app's headers (cookies…) on the 101; skipped where the runtime's response is immutable. */
export function copyHeaders(from: Headers, to: Response): void {
  for (const [name, value] of from) {
    if (name === 'content-type' || name === 'content-length') continue;
    try {
      to.headers.append(name, value);
    } catch {
      return;
    }
  }
}
