// Node holds a body back for one macrotask to send it with its length when it is all there at
// once (as the other runtimes do). A producer that keeps sending is a stream: it goes out
// chunked at once, however fast it produces, and stops when the client goes away.
import { request } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { serve } from '../../../adapters/node/index.ts';
import { App } from '../../../src/index.ts';
import { sse } from '../../../src/sse/index.ts';

describe('node adapter: a body still being produced', () => {
  let produced = 0;
  let stopped = false;
  const app = new App()
    .get('/sse', (c) =>
      sse(c, async (stream) => {
        while (!stream.aborted) {
          produced++;
          await stream.send({ data: 'x' });
        }
        stopped = true;
      }),
    )
    .get('/few', (c) =>
      c.stream(async (w) => {
        for (let i = 0; i < 3; i++) await w.write(`chunk ${i};`);
      }),
    );
  let handle: ReturnType<typeof serve>;
  let port: number;
  beforeAll(async () => {
    handle = serve(app, { port: 0, hostname: '127.0.0.1', handleSignals: false, onListen: () => {} });
    await handle.ready;
    port = Number(new URL(handle.url).port);
  });
  afterAll(() => handle.close());

  it('a fast endless producer is streamed at once, not held back, and stops when the client goes away', async () => {
    const seenAtHeaders = await new Promise<number>((resolve, reject) => {
      const req = request({ host: '127.0.0.1', port, path: '/sse', agent: false }, (res) => {
        expect(res.headers['transfer-encoding']).toBe('chunked');
        const at = produced;
        res.once('data', () => {
          req.destroy();
          resolve(at);
        });
      });
      req.on('error', reject);
      req.end();
    });
    // Streamed, the producer is held by the buffers on the way (sse's 64 KiB, node's, the socket's):
    // about 8,000 events of 9 bytes here. Held back, it always ran on to a megabyte of events first
    // (over 116,000): the headers waited for MAX_HELD while every read resolved in a microtask.
    expect(seenAtHeaders).toBeLessThan(60_000);
    for (let i = 0; i < 200 && !stopped; i++) await new Promise((r) => setTimeout(r, 10));
    expect(stopped).toBe(true);
  });

  it('a body that is all there within a macrotask still goes with its length', async () => {
    const res = await fetch(`http://127.0.0.1:${port}/few`);
    expect(res.headers.get('content-length')).toBe(String('chunk 0;chunk 1;chunk 2;'.length));
    expect(await res.text()).toBe('chunk 0;chunk 1;chunk 2;');
  });
});
