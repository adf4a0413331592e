// A lean WebSocket echo client for the ws-echo load: plain node:net sockets, one
// prepared frame per connection, and a frame-header scanner that only counts.
// The `ws` package parses, unmasks and emits every message as an event; on this
// 2-core machine that made the load client, not the server, the limit (both near
// 60–80 % of their core). This one spends roughly a third of that per round trip, so the
// server under test is the busier side and its CPU per round trip is what is read.
//
// Not a general client: it sends the same masked 32-byte text frame over and over
// (one mask key per connection, drawn once; servers unmask without judging the key),
// and it never answers pings (a bench run is never idle long enough to be pinged).
import { randomBytes } from 'node:crypto';
import { connect, type Socket } from 'node:net';

export interface EchoConnection {
  socket: Socket;
  /** Send the first message; each echo then sends the next, until `stop()`. */
  start(): void;
  stop(): void;
}

/** The client's frame: FIN + text, masked, with the payload already XORed with the key. */
function maskedTextFrame(payload: Buffer): Buffer {
  if (payload.length > 125) throw new RangeError('ws-client: payloads up to 125 bytes');
  const key = randomBytes(4);
  const frame = Buffer.alloc(6 + payload.length);
  frame[0] = 0x81;
  frame[1] = 0x80 | payload.length;
  key.copy(frame, 2);
  for (let i = 0; i < payload.length; i++) frame[6 + i] = payload[i] ^ key[i & 3];
  return frame;
}

/**
 * Counts complete data messages in the server's byte stream (frames are unmasked from a server),
 * calling `onMessage` at each final frame of a text, binary or continuation message, and
 * `onClose` at a close frame. Headers and payloads may straddle chunks.
 */
export function frameScanner(onMessage: () => void, onClose: () => void): (chunk: Buffer) => void {
  let rest: Buffer | null = null;
  let skip = 0;
  let endsMessage = false;
  let closing = false;
  const frameDone = () => {
    if (closing) onClose();
    else if (endsMessage) onMessage();
  };
  return (chunk) => {
    let buf = chunk;
    if (rest !== null) {
      buf = Buffer.concat([rest, chunk]);
      rest = null;
    }
    let i = 0;
    while (i < buf.length) {
      if (skip > 0) {
        const n = Math.min(skip, buf.length - i);
        skip -= n;
        i += n;
        if (skip === 0) frameDone();
        continue;
      }
      const left = buf.length - i;
      if (left < 2) {
        rest = buf.subarray(i);
        return;
      }
      const b0 = buf[i];
      const b1 = buf[i + 1];
      let len = b1 & 0x7f;
      let header = 2;
      if (len === 126) {
        if (left < 4) {
          rest = buf.subarray(i);
          return;
        }
        len = buf.readUInt16BE(i + 2);
        header = 4;
      } else if (len === 127) {
        if (left < 10) {
          rest = buf.subarray(i);
          return;
        }
        len = Number(buf.readBigUInt64BE(i + 2));
        header = 10;
      }
      if (b1 & 0x80) header += 4;
      if (left < header) {
        rest = buf.subarray(i);
        return;
      }
      i += header;
      const opcode = b0 & 0x0f;
      endsMessage = (b0 & 0x80) !== 0 && opcode <= 2;
      closing = opcode === 8;
      if (len === 0) frameDone();
      else skip = len;
    }
  };
}

/** Open one connection to `url` (ws://host:port/path), resolve once the server answered 101. */
export function openEcho(url: string, payload: Buffer, onMessage: () => void, onGone: () => void): Promise<EchoConnection> {
  const { hostname, port, pathname } = new URL(url);
  const frame = maskedTextFrame(payload);
  return new Promise((resolve, reject) => {
    const socket = connect({ host: hostname, port: Number(port), noDelay: true });
    let stopped = false;
    let head = Buffer.alloc(0);
    const scan = frameScanner(
      () => {
        onMessage();
        if (!stopped) socket.write(frame);
      },
      () => socket.destroy(),
    );
    const onHead = (chunk: Buffer) => {
      head = Buffer.concat([head, chunk]);
      const end = head.indexOf('\r\n\r\n');
      if (end === -1) return;
      if (!head.subarray(0, 13).toString('latin1').startsWith('HTTP/1.1 101')) {
        socket.destroy();
        reject(new Error(`ws-client: no upgrade: ${head.subarray(0, end).toString('latin1').split('\r\n')[0]}`));
        return;
      }
      socket.off('data', onHead);
      socket.on('data', scan);
      if (head.length > end + 4) scan(head.subarray(end + 4));
      resolve({
        socket,
        start: () => socket.write(frame),
        stop: () => {
          stopped = true;
          socket.destroy();
        },
      });
    };
    socket.on('data', onHead);
    socket.once('error', reject);
    socket.on('error', () => {});
    socket.on('close', () => {
      if (!stopped) onGone();
    });
    socket.write(
      `GET ${pathname} HTTP/1.1\r\nHost: ${hostname}:${port}\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n` +
        `Sec-WebSocket-Key: ${randomBytes(16).toString('base64')}\r\nSec-WebSocket-Version: 13\r\n\r\n`,
    );
  });
}
