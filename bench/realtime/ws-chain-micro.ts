// The framework's own share of one ws-echo round trip, without sockets: the JavaScript that runs
// from the runtime's message event to the runtime's send(), for Rove (the adapters' listener,
// the session, the handler, ws.send) and for Hono's helper (its listener, WSContext, the handler).
// The runtime's part (reading the frame, building and dispatching the event, writing the frame,
// the kernel) is left out: it is the same for both and is most of the ~6–12 µs a round trip costs.
//
//   deno run bench/realtime/ws-chain-micro.ts [--connections 50]   (or: node --import tsx …)
//
// Messages go round-robin to 50 connections by default, as in the bench: each connection has its
// own listener, session and handler closures, so a call site that one connection keeps monomorphic
// sees many closures (--connections 1 shows the single-connection figure).
//
// Not a load test: one process, one core, no bench lock needed.
import { WSContext } from 'hono/ws';
import type { RawSocket } from '../../src/websocket/protocol.ts';
import { Session, type WSEvents } from '../../src/websocket/session.ts';

const N = 2_000_000;
const at = process.argv.indexOf('--connections');
const CONNECTIONS = at === -1 ? 50 : Math.max(1, Number(process.argv[at + 1]) || 1);
const REPEATS = 7;
const event = new MessageEvent('message', { data: 'x'.repeat(32) });

// The runtime socket's send, as cheap as it gets: what is measured is everything before it.
let sent = 0;
const runtimeSend = (data: unknown) => {
  if (data !== undefined) sent++;
};

function roveListener(): (event: MessageEvent) => void {
  const raw: RawSocket = {
    send(data) {
      try {
        runtimeSend(data);
      } catch {
        // dropped
      }
    },
    close() {},
    terminate() {},
    buffered: () => 0,
    drainEvents: false,
    nativeIdle: true,
  };
  const c = { emit() {}, path: '/ws' } as never;
  const events: WSEvents = { onMessage: (data, ws) => void ws.send(data) };
  const session = new Session(raw, events, c, { maxMessageSize: 65_536, idleTimeoutMs: 120_000, highWaterMark: 1_048_576, maxBufferedAmount: 16_777_216 }, '');
  const sink = session.sink;
  // adapters/deno/websocket.ts and cloudflare/websocket.ts, as written there.
  return (event) => {
    const data = event.data;
    sink.message(typeof data === 'string' ? data : new Uint8Array(data as ArrayBuffer));
  };
}

function honoListener(): (event: MessageEvent) => void {
  // hono/dist/adapter/deno/websocket.js (cloudflare-workers is the same shape).
  const socket = { send: runtimeSend };
  const ws = new WSContext({ close: () => {}, raw: socket, readyState: 1, url: null, send: (source: unknown) => socket.send(source) } as never);
  const events = { onMessage: (e: MessageEvent, w: WSContext) => w.send(e.data as string) };
  return (evt) => events.onMessage?.(evt, ws);
}

function time(listeners: ((event: MessageEvent) => void)[]): number {
  const t0 = performance.now();
  for (let i = 0; i < N; i++) listeners[i % CONNECTIONS](event);
  return ((performance.now() - t0) * 1e6) / N;
}

const rove = Array.from({ length: CONNECTIONS }, roveListener);
const hono = Array.from({ length: CONNECTIONS }, honoListener);
const out: { rove: number[]; hono: number[] } = { rove: [], hono: [] };
for (let r = 0; r < REPEATS; r++) {
  // Alternating, so that whatever else the machine does weighs on both alike.
  if (r % 2 === 0) {
    out.rove.push(time(rove));
    out.hono.push(time(hono));
  } else {
    out.hono.push(time(hono));
    out.rove.push(time(rove));
  }
}
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
console.log(
  `ns per message over ${CONNECTIONS} connections (median of ${REPEATS} × ${N}; first is warm-up): rove ${median(out.rove.slice(1)).toFixed(1)}, hono ${median(out.hono.slice(1)).toFixed(1)}  (sends ${sent})`,
);
