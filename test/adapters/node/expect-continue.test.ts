// Node tells a client that sent `Expect: 100-continue` to go on only when the app reads the body,
// so a body refused by its declared length is never sent.
import { connect } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { serve } from '../../../adapters/node/index.ts';
import { App } from '../../../src/index.ts';

/** Send a head with Expect and wait `ms`: everything the server wrote in that time, and whether it closed. */
function ask(port: number, head: string, ms: number): Promise<{ text: string; closed: boolean }> {
  return new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1');
    let text = '';
    let closed = false;
    socket.on('connect', () => socket.write(`${head}\r\nExpect: 100-continue\r\n\r\n`));
    socket.on('data', (d: Buffer) => {
      text += d.toString('latin1');
    });
    socket.on('close', () => {
      closed = true;
    });
    socket.on('error', () => {});
    setTimeout(() => {
      socket.destroy();
      resolve({ text, closed });
    }, ms);
  });
}

describe('node adapter: Expect: 100-continue', () => {
  let reads = 0;
  const app = new App()
    .post('/json', async (c) => {
      reads++;
      return c.json(await c.req.json());
    })
    .post('/ignore', (c) => c.text('not read'));
  let handle: ReturnType<typeof serve>;
  let port: number;
  beforeAll(async () => {
    handle = serve(app, { port: 0, hostname: '127.0.0.1', handleSignals: false, onListen: () => {} });
    await handle.ready;
    port = Number(new URL(handle.url).port);
  });
  afterAll(() => handle.close());

  it('a declared length over the limit gets its 413 with no 100 Continue, and the connection closes', async () => {
    const { text, closed } = await ask(port, `POST /json HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: ${5 * 1024 * 1024}`, 300);
    expect(text).toMatch(/^HTTP\/1\.1 413 /);
    expect(text).not.toContain('100 Continue');
    expect(closed).toBe(true);
    expect(reads).toBe(1);
  });

  it('a body the app reads is asked for with 100 Continue, then answered', async () => {
    const body = JSON.stringify({ a: 1 });
    const socket = connect(port, '127.0.0.1');
    const answer = await new Promise<string>((resolve) => {
      let text = '';
      socket.on('connect', () =>
        socket.write(
          `POST /json HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: ${body.length}\r\nExpect: 100-continue\r\nConnection: close\r\n\r\n`,
        ),
      );
      socket.on('data', (d: Buffer) => {
        text += d.toString('latin1');
        if (text === 'HTTP/1.1 100 Continue\r\n\r\n') socket.write(body);
      });
      socket.on('close', () => resolve(text));
    });
    expect(answer).toMatch(/^HTTP\/1\.1 100 Continue\r\n\r\nHTTP\/1\.1 200 /);
    expect(answer.endsWith(body)).toBe(true);
  });

  it('a route that never reads the body answers without 100 Continue and closes', async () => {
    const { text, closed } = await ask(port, 'POST /ignore HTTP/1.1\r\nHost: x\r\nContent-Type: text/plain\r\nContent-Length: 10', 300);
    expect(text).toMatch(/^HTTP\/1\.1 200 /);
    expect(text).not.toContain('100 Continue');
    expect(text.endsWith('not read')).toBe(true);
    expect(closed).toBe(true);
  });
});
