// WebSocket behaviour beyond the example's contract, over loopback on all five runtimes.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { CONFORMANCE_RUNTIMES, type Running, start } from './servers.ts';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

interface Opened {
  ws: WebSocket;
  headers: Record<string, string | string[] | undefined>;
  /** Every message from the start: they can arrive in the same read as the handshake. */
  messages: string[];
}

function open(url: string, protocols?: string[], options: WebSocket.ClientOptions = {}): Promise<Opened> {
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(url, protocols, options);
    const messages: string[] = [];
    let headers: Record<string, string | string[] | undefined> = {};
    ws.on('message', (d) => messages.push(d.toString()));
    ws.once('upgrade', (res) => (headers = res.headers));
    ws.once('open', () => resolve({ ws, headers, messages }));
    ws.once('error', reject);
  });
}

function closed(ws: WebSocket): Promise<{ code: number; reason: string }> {
  return new Promise((resolve) => ws.once('close', (code, reason) => resolve({ code, reason: reason.toString() })));
}

describe.each(CONFORMANCE_RUNTIMES)('WebSocket probe on %s', (runtime) => {
  let server: Running;
  let base: string;
  beforeAll(async () => {
    server = await start(runtime, 'test/conformance/realtime-probe');
    base = server.url.replace('http://', 'ws://');
  }, 60_000);
  afterAll(() => server?.stop());

  it('negotiates the subprotocol and carries headers set before the upgrade on the 101', async () => {
    const { ws, headers, messages } = await open(`${base}/ws/proto`, ['chat.v1', 'chat.v2']);
    for (let i = 0; i < 100 && messages.length === 0; i++) await sleep(20);
    expect(messages[0]).toBe('protocol=chat.v1');
    expect(ws.protocol).toBe('chat.v1');
    expect(headers['x-probe']).toBe('yes');
    ws.close();
  });

  it('a server close sends its code and reason; a throwing handler reaches ws:error; ws:open and ws:close are emitted', async () => {
    const a = await open(`${base}/ws/close`);
    const end = closed(a.ws);
    a.ws.send('throw');
    a.ws.send('now close');
    expect(await end).toEqual({ code: 4000, reason: 'bye' });
    await sleep(100);
    const events = (await (await fetch(`${server.url}/events`)).json()) as string[];
    expect(events).toContain('open /ws/close');
    expect(events).toContain('error /ws/close handler failed');
    expect(events).toContain('close /ws/close 4000');
  });

  it('awaited sends under backpressure deliver everything, in order', async () => {
    const { ws, messages } = await open(`${base}/ws/flood`);
    // A client that stops reading for a while: the server's queue fills past its high-water mark.
    ws.pause();
    await sleep(500);
    ws.resume();
    const end = await closed(ws);
    expect(end.code).toBe(1000);
    expect(messages.map((m) => Number(m.split(':')[0]))).toEqual(Array.from({ length: 200 }, (_, i) => i));
  });

  it('idle timeout: a client that answers pings stays; one that answers nothing is closed', async () => {
    // The ws client answers pings by itself (autoPong). Workers cannot ping, so there both are closed.
    const alive = await open(`${base}/ws/idle`);
    const mute = await open(`${base}/ws/idle`, undefined, { autoPong: false });
    const muteClosed = closed(mute.ws);
    const aliveClosed = closed(alive.ws);
    const first = await Promise.race([muteClosed, sleep(4000).then(() => undefined)]);
    expect(first).toBeDefined();
    if (runtime !== 'deno' && runtime !== 'deno-deploy') expect(first?.code).toBe(1001);
    if (runtime === 'workerd') {
      expect((await aliveClosed).code).toBe(1001);
      return;
    }
    await sleep(1000);
    expect(alive.ws.readyState).toBe(WebSocket.OPEN);
    alive.ws.close();
  }, 15_000);
});
