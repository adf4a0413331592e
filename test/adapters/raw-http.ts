// Raw HTTP/1.1 over a TCP socket, for what fetch and node:http refuse to send
// (a Host with a space, `OPTIONS *`, a request that never ends).
import { connect, type Socket } from 'node:net';

export interface RawAnswer {
  status: number;
  headers: Record<string, string>;
  body: string;
  /** Everything received, as text. */
  text: string;
}

/** Send `head` (and `body`) as is, read until the server closes or `timeoutMs`, and parse one response. */
export function rawRequest(port: number, head: string, body = '', timeoutMs = 5000): Promise<RawAnswer> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1');
    let received = '';
    const timer = setTimeout(() => {
      socket.destroy();
      finish();
    }, timeoutMs);
    const finish = () => {
      clearTimeout(timer);
      const parsed = parseResponse(received);
      if (parsed) resolve(parsed);
      else reject(new Error(`No HTTP response in ${JSON.stringify(received.slice(0, 200))}`));
    };
    socket.setEncoding('latin1');
    socket.on('data', (chunk: string) => {
      received += chunk;
      // Connection: keep-alive answers end when their body is complete.
      const parsed = parseResponse(received);
      if (parsed && complete(parsed, received)) {
        socket.destroy();
        finish();
      }
    });
    socket.on('error', () => {});
    socket.on('close', finish);
    socket.write(head + body);
  });
}

function complete(answer: RawAnswer, text: string): boolean {
  const length = answer.headers['content-length'];
  if (length !== undefined) return answer.body.length >= Number(length);
  if (answer.headers['transfer-encoding'] === 'chunked') return text.endsWith('0\r\n\r\n');
  return false;
}

function parseResponse(text: string): RawAnswer | undefined {
  const end = text.indexOf('\r\n\r\n');
  if (end === -1) return undefined;
  const lines = text.slice(0, end).split('\r\n');
  const status = Number(lines[0].split(' ')[1]);
  const headers: Record<string, string> = {};
  for (const line of lines.slice(1)) {
    const i = line.indexOf(':');
    headers[line.slice(0, i).trim().toLowerCase()] = line.slice(i + 1).trim();
  }
  let body = text.slice(end + 4);
  if (headers['transfer-encoding'] === 'chunked') body = unchunk(body);
  return { status, headers, body, text };
}

function unchunk(body: string): string {
  let out = '';
  let at = 0;
  for (;;) {
    const eol = body.indexOf('\r\n', at);
    if (eol === -1) return out;
    const size = parseInt(body.slice(at, eol), 16);
    if (!(size > 0)) return out;
    out += body.slice(eol + 2, eol + 2 + size);
    at = eol + 2 + size + 2;
  }
}

/** A GET with the given Host header line (or none), closing the connection after. */
export function withHost(port: number, host: string | null, path = '/', method = 'GET'): Promise<RawAnswer> {
  const hostLine = host === null ? '' : `Host: ${host}\r\n`;
  return rawRequest(port, `${method} ${path} HTTP/1.1\r\n${hostLine}Connection: close\r\n\r\n`);
}

/** Open a connection and send `head` without finishing it; resolves with the ms until the server closed it. */
export function timeUntilClosed(port: number, head: string, trickle?: { every: number; text: string }, limitMs = 10_000): Promise<number | 'open'> {
  return new Promise((resolve) => {
    const socket: Socket = connect(port, '127.0.0.1');
    const started = Date.now();
    let timer: ReturnType<typeof setInterval> | undefined;
    const limit = setTimeout(() => {
      clearInterval(timer);
      socket.destroy();
      resolve('open');
    }, limitMs);
    socket.on('connect', () => {
      if (head) socket.write(head);
      if (trickle) timer = setInterval(() => socket.write(trickle.text), trickle.every);
    });
    socket.on('data', () => {});
    socket.on('error', () => {});
    socket.on('close', () => {
      clearInterval(timer);
      clearTimeout(limit);
      resolve(Date.now() - started);
    });
  });
}
