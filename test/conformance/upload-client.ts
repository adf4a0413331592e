// A strict upload client over raw TCP: it sends a body the way curl does (waiting for
// `100 Continue` when it asked for it, up to a second) and stops sending at the first
// final answer. A write the server refuses (EPIPE, ECONNRESET) ends it, as it ends
// Node's own clients, so an answer that only arrives before a reset is not counted.
import { connect } from 'node:net';

export interface Upload {
  path: string;
  size: number;
  chunked: boolean;
  expect: boolean;
}

/** What came back: a status, or the socket error that arrived first. */
export type Outcome = { status: number; sent: number } | { error: string; sent: number };

export function upload(url: string, { path, size, chunked, expect }: Upload, timeoutMs = 20_000): Promise<Outcome> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve) => {
    const socket = connect({ host: hostname, port: Number(port) });
    const head = [`POST ${path} HTTP/1.1`, `Host: ${hostname}:${port}`, 'Content-Type: application/json', 'Connection: close'];
    head.push(chunked ? 'Transfer-Encoding: chunked' : `Content-Length: ${size}`);
    if (expect) head.push('Expect: 100-continue');
    const piece = Buffer.alloc(64 * 1024, 0x61);
    let got = '';
    let sent = 0;
    let sending = true;
    let settled = false;
    const end = (outcome: Outcome) => {
      if (settled) return;
      settled = true;
      sending = false;
      clearTimeout(timer);
      socket.destroy();
      resolve(outcome);
    };
    const pump = () => {
      while (sending && sent < size) {
        const n = Math.min(piece.length, size - sent);
        const bytes = chunked ? Buffer.concat([Buffer.from(`${n.toString(16)}\r\n`), piece.subarray(0, n), Buffer.from('\r\n')]) : piece.subarray(0, n);
        sent += n;
        if (!socket.write(bytes)) {
          socket.once('drain', pump);
          return;
        }
      }
      if (sending && chunked) socket.write('0\r\n\r\n');
      sending = false;
    };
    socket.on('connect', () => {
      socket.write(`${head.join('\r\n')}\r\n\r\n`);
      if (expect) setTimeout(() => got === '' && pump(), 1000);
      else pump();
    });
    socket.on('data', (data: Buffer) => {
      got += data.toString('latin1');
      for (;;) {
        const blank = got.indexOf('\r\n\r\n');
        if (blank === -1) return;
        const status = Number(/^HTTP\/1\.[01] (\d{3})/.exec(got)?.[1]);
        if (status === 100) {
          got = got.slice(blank + 4);
          pump();
          continue;
        }
        end({ status, sent });
        return;
      }
    });
    socket.on('error', (error: NodeJS.ErrnoException) => end({ error: error.code ?? error.message, sent }));
    socket.on('close', () => end({ error: 'closed without an answer', sent }));
    const timer = setTimeout(() => end({ error: `no answer in ${timeoutMs} ms`, sent }), timeoutMs);
  });
}
