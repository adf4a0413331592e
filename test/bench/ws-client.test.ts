import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WebSocketServer } from 'ws';
import { frameScanner, openEcho } from '../../bench/realtime/ws-client.ts';

const frame = (first: number, payload: Buffer) => {
  const n = payload.length;
  const head =
    n < 126
      ? Buffer.from([first, n])
      : n < 65536
        ? Buffer.from([first, 126, n >> 8, n & 255])
        : Buffer.from([first, 127, 0, 0, 0, 0, n >>> 24, (n >> 16) & 255, (n >> 8) & 255, n & 255]);
  return Buffer.concat([head, payload]);
};

describe('the ws-echo bench client: frameScanner', () => {
  it('counts whole messages however the bytes are split', () => {
    const stream = Buffer.concat([
      frame(0x81, Buffer.from('x'.repeat(32))),
      frame(0x82, Buffer.alloc(300, 1)), // 16-bit length
      frame(0x01, Buffer.from('part')), // a text message in two frames: counted once, at the end
      frame(0x89, Buffer.from('ping')), // control frame in between: not a message
      frame(0x80, Buffer.from('end')),
      frame(0x81, Buffer.alloc(70_000, 120)), // 64-bit length
      frame(0x81, Buffer.alloc(0)),
    ]);
    for (const size of [1, 2, 3, 7, 64, stream.length]) {
      let messages = 0;
      const scan = frameScanner(
        () => messages++,
        () => {
          throw new Error('no close frame here');
        },
      );
      for (let i = 0; i < stream.length; i += size) scan(stream.subarray(i, i + size));
      expect(messages, `chunks of ${size}`).toBe(5);
    }
  });

  it('reports a close frame', () => {
    let closed = 0;
    frameScanner(
      () => {},
      () => closed++,
    )(frame(0x88, Buffer.from([3, 232])));
    expect(closed).toBe(1);
  });
});

describe('the ws-echo bench client: openEcho', () => {
  let server: Server;
  let url: string;
  beforeAll(async () => {
    server = createServer();
    const wss = new WebSocketServer({ server });
    wss.on('connection', (ws) => ws.on('message', (data, binary) => ws.send(data, { binary })));
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    url = `ws://127.0.0.1:${(server.address() as AddressInfo).port}/ws`;
  });
  afterAll(() => new Promise<void>((r) => server.close(() => r())));

  it('round-trips masked text frames against a real server until stopped', async () => {
    let echoes = 0;
    let gone = 0;
    const conn = await openEcho(
      url,
      Buffer.from('hello'),
      () => echoes++,
      () => gone++,
    );
    conn.start();
    await new Promise((r) => setTimeout(r, 100));
    conn.stop();
    expect(echoes).toBeGreaterThan(10);
    expect(gone).toBe(0);
  });

  it('rejects when the server does not upgrade', async () => {
    const plain = createServer((_req, res) => res.end('no'));
    await new Promise<void>((r) => plain.listen(0, '127.0.0.1', r));
    const port = (plain.address() as AddressInfo).port;
    await expect(
      openEcho(
        `ws://127.0.0.1:${port}/ws`,
        Buffer.from('x'),
        () => {},
        () => {},
      ),
    ).rejects.toThrow(/no upgrade/);
    await new Promise<void>((r) => plain.close(() => r()));
  });
});
