// Raw HTTP/1.1 over TCP, for what fetch will not send: odd Host headers, `OPTIONS *`,
// `//` and `\` in the target, lower-case methods, headers that never end.
import { connect } from 'node:net';

export interface RawResponse {
  status: number;
  /** Header names lower-cased; repeated headers joined with ', ' (set-cookie kept apart in `setCookie`). */
  headers: Record<string, string>;
  setCookie: string[];
  body: string;
}

/** Send `head` (request line and headers, without the blank line) and read one response until the server closes. */
export function rawRequest(url: string, head: string, options: { body?: string; timeoutMs?: number; method?: string } = {}): Promise<RawResponse> {
  const { hostname, port } = new URL(url);
  const body = options.body === undefined ? '' : options.body;
  // A body's length is counted here, so a test cannot get it wrong.
  const length = options.body === undefined || /^content-length:/im.test(head) ? '' : `\r\nContent-Length: ${Buffer.byteLength(body)}`;
  const request = `${
    head
      .replace(/\r?\n$/, '')
      .split(/\r?\n/)
      .join('\r\n') + length
  }\r\nConnection: close\r\n\r\n${body}`;
  const method = options.method ?? head.slice(0, head.indexOf(' '));
  return new Promise((resolve, reject) => {
    const socket = connect({ host: hostname, port: Number(port) });
    const chunks: Buffer[] = [];
    socket.setTimeout(options.timeoutMs ?? 5000, () =>
      socket.destroy(new Error(`no complete answer to ${JSON.stringify(head.split('\n')[0])} within ${options.timeoutMs ?? 5000} ms`)),
    );
    socket.on('data', (c: Buffer) => {
      chunks.push(c);
      // workerd keeps the connection open despite `Connection: close`: stop once the framing says the response is whole.
      if (complete(Buffer.concat(chunks), method === 'HEAD')) done();
    });
    socket.on('error', (error) => (chunks.length > 0 ? done() : reject(error)));
    socket.on('end', () => done());
    socket.on('connect', () => socket.write(request));
    let settled = false;
    const done = () => {
      if (settled) return;
      settled = true;
      socket.destroy();
      try {
        resolve(parseResponse(Buffer.concat(chunks), method === 'HEAD'));
      } catch (error) {
        reject(error);
      }
    };
  });
}

/** Whether `data` holds a whole response: its head, then the body its Content-Length or chunked framing announces. */
function complete(data: Buffer, head: boolean): boolean {
  const end = data.indexOf('\r\n\r\n');
  if (end === -1) return false;
  const text = data.subarray(0, end).toString('latin1');
  const status = Number(/^HTTP\/1\.[01] (\d{3})/.exec(text)?.[1]);
  if (head || status === 204 || status === 304 || (status >= 100 && status < 200)) return true;
  const length = /\r\ncontent-length:\s*(\d+)/i.exec(text);
  if (length) return data.length - (end + 4) >= Number(length[1]);
  if (/\r\ntransfer-encoding:[^\r]*chunked/i.test(text))
    return data.subarray(end + 4).includes('\r\n0\r\n\r\n') || data.subarray(end + 4).indexOf('0\r\n\r\n') === 0;
  return false; // read until the server closes
}

/** Parse one HTTP/1.1 response; a HEAD answer has no body whatever its headers say. */
export function parseResponse(data: Buffer, head = false): RawResponse {
  const end = data.indexOf('\r\n\r\n');
  if (end === -1) throw new Error(`no complete response head in ${JSON.stringify(data.toString('latin1').slice(0, 200))}`);
  const lines = data.subarray(0, end).toString('latin1').split('\r\n');
  const status = Number(/^HTTP\/1\.[01] (\d{3})/.exec(lines[0])?.[1]);
  const headers: Record<string, string> = {};
  const setCookie: string[] = [];
  for (const line of lines.slice(1)) {
    const colon = line.indexOf(':');
    const name = line.slice(0, colon).trim().toLowerCase();
    const value = line.slice(colon + 1).trim();
    if (name === 'set-cookie') setCookie.push(value);
    headers[name] = name in headers ? `${headers[name]}, ${value}` : value;
  }
  let body = data.subarray(end + 4);
  if (head) body = Buffer.alloc(0);
  else if (/chunked/i.test(headers['transfer-encoding'] ?? '')) body = dechunk(body);
  else if (headers['content-length'] !== undefined) body = body.subarray(0, Number(headers['content-length']));
  return { status, headers, setCookie, body: body.toString('utf8') };
}

function dechunk(data: Buffer): Buffer {
  const parts: Buffer[] = [];
  let at = 0;
  for (;;) {
    const eol = data.indexOf('\r\n', at);
    if (eol === -1) break;
    const size = parseInt(data.subarray(at, eol).toString('latin1'), 16);
    if (!(size > 0)) break;
    parts.push(data.subarray(eol + 2, eol + 2 + size));
    at = eol + 2 + size + 2;
  }
  return Buffer.concat(parts);
}

/**
 * Open a connection, send `partial` (a request whose headers never end) and wait:
 * resolves with how long the server took to hang up and what it sent, or `cutOff: false` after `waitMs`.
 */
export function slowClient(url: string, partial: string, waitMs: number): Promise<{ cutOff: boolean; afterMs: number; answer: string }> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve, reject) => {
    const socket = connect({ host: hostname, port: Number(port) });
    const chunks: Buffer[] = [];
    let t0 = 0;
    const timer = setTimeout(() => finish(false), waitMs);
    const finish = (cutOff: boolean) => {
      clearTimeout(timer);
      socket.destroy();
      resolve({ cutOff, afterMs: Date.now() - t0, answer: Buffer.concat(chunks).toString('latin1') });
    };
    socket.on('connect', () => {
      t0 = Date.now();
      socket.write(partial.split(/\r?\n/).join('\r\n'));
    });
    socket.on('data', (c: Buffer) => chunks.push(c));
    socket.on('end', () => finish(true));
    socket.on('close', () => finish(true));
    socket.on('error', (error) => (t0 === 0 ? reject(error) : finish(true)));
  });
}
