// The realtime load client: holds N connections open and counts what arrives in a
// measured window after a warm-up. autocannon measures request/response exchanges, so
// it can do neither an endless event stream nor a WebSocket.
//   sse:     N GET /sse streams read as fast as possible; counts events (blank-line ends).
//   ws-echo: N WebSockets, each sending a 32-byte text and waiting for the echo before the
//            next; counts round trips. The client is ws-client.ts (plain sockets), or with
//            `client: 'ws'` the `ws` package.
import { request } from 'node:http';
import WebSocket from 'ws';
import { openEcho } from './ws-client.ts';

export interface LoadOptions {
  url: string;
  connections: number;
  warmupMs: number;
  durationMs: number;
  /** ws-echo's client: 'raw' (ws-client.ts, the default) or 'ws' (the `ws` package). */
  client?: 'raw' | 'ws';
  /** Called as the measured window opens and closes (the runner reads the server's CPU there). */
  onWindow?: (phase: 'start' | 'end') => void;
}

export interface LoadResult {
  /** Events (sse) or round trips (ws-echo) per second, all connections together. */
  perSecond: number;
  /** Events or round trips counted in the measured window. */
  messages: number;
  /** Connections that failed or closed during the run. */
  errors: number;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const BLANK_LINE = Buffer.from('\n\n');

/** Count events in a stream of chunks: each ends with a blank line ("\n\n"), which may straddle chunks. */
function eventCounter(): (chunk: Buffer) => number {
  let lastWasLF = false;
  return (chunk) => {
    let n = 0;
    if (lastWasLF && chunk[0] === 0x0a) n++;
    for (let i = chunk.indexOf(BLANK_LINE); i !== -1; i = chunk.indexOf(BLANK_LINE, i + 2)) n++;
    lastWasLF = chunk[chunk.length - 1] === 0x0a && !(chunk.length >= 2 && chunk[chunk.length - 2] === 0x0a);
    return n;
  };
}

export async function sseLoad(o: LoadOptions): Promise<LoadResult> {
  let count = 0;
  let errors = 0;
  let stopping = false;
  const url = new URL('/sse', o.url);
  const requests = Array.from({ length: o.connections }, () => {
    const req = request(url, { agent: false }, (res) => {
      const counter = eventCounter();
      res.on('data', (chunk: Buffer) => (count += counter(chunk)));
      res.on('error', () => {});
      res.on('end', () => {
        if (!stopping) errors++;
      });
    });
    req.on('error', () => {
      if (!stopping) errors++;
    });
    req.end();
    return req;
  });
  const { perSecond, messages } = await measuredRate(o, () => count);
  stopping = true;
  for (const r of requests) r.destroy();
  return { perSecond, messages, errors };
}

export async function wsEchoLoad(o: LoadOptions): Promise<LoadResult> {
  return o.client === 'ws' ? wsPackageEchoLoad(o) : rawEchoLoad(o);
}

/** ws-echo with the lean client of ws-client.ts (the default). */
async function rawEchoLoad(o: LoadOptions): Promise<LoadResult> {
  let count = 0;
  let errors = 0;
  const url = `${o.url.replace(/^http/, 'ws').replace(/\/$/, '')}/ws`;
  const payload = Buffer.from('x'.repeat(32));
  const counted = () => {
    count++;
  };
  const gone = () => {
    errors++;
  };
  const connections = await Promise.all(Array.from({ length: o.connections }, () => openEcho(url, payload, counted, gone)));
  for (const c of connections) c.start();
  const { perSecond, messages } = await measuredRate(o, () => count);
  for (const c of connections) c.stop();
  return { perSecond, messages, errors };
}

/** ws-echo with the `ws` package's client (`--client ws`), as the runs before 2026-11-23 23:00 did. */
async function wsPackageEchoLoad(o: LoadOptions): Promise<LoadResult> {
  let count = 0;
  let errors = 0;
  let stopping = false;
  const url = `${o.url.replace(/^http/, 'ws').replace(/\/$/, '')}/ws`;
  const message = 'x'.repeat(32);
  const sockets = await Promise.all(
    Array.from(
      { length: o.connections },
      () =>
        new Promise<WebSocket>((resolve, reject) => {
          const ws = new WebSocket(url, { perMessageDeflate: false });
          ws.once('open', () => {
            ws.on('message', () => {
              count++;
              if (!stopping) ws.send(message);
            });
            ws.send(message);
            resolve(ws);
          });
          ws.once('error', reject);
          ws.on('close', () => {
            if (!stopping) errors++;
          });
        }),
    ),
  );
  const { perSecond, messages } = await measuredRate(o, () => count);
  stopping = true;
  for (const ws of sockets) ws.terminate();
  return { perSecond, messages, errors };
}

/** After the warm-up, how fast `counted()` grows over the measured window, per second. */
async function measuredRate(o: LoadOptions, counted: () => number): Promise<{ perSecond: number; messages: number }> {
  await sleep(o.warmupMs);
  o.onWindow?.('start');
  const start = counted();
  const t0 = performance.now();
  await sleep(o.durationMs);
  const messages = counted() - start;
  const seconds = (performance.now() - t0) / 1000;
  o.onWindow?.('end');
  return { perSecond: messages / seconds, messages };
}
