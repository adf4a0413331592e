// examples/realtime's contract over real loopback on all five runtimes, with a real
// WebSocket client (the `ws` package: Node 20 has no global WebSocket without a flag).
import { connect as connectTcp } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { CONFORMANCE_RUNTIMES, type Running, start } from './servers.ts';

interface Closed {
  code: number;
  reason: string;
}

/** Open a socket; resolves once open, or rejects with the HTTP status that refused it. */
function connect(url: string, headers: Record<string, string> = {}): Promise<WebSocket> {
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(url, { headers });
    ws.once('open', () => resolve(ws));
    ws.once('unexpected-response', (_req, res) => {
      reject(Object.assign(new Error(`refused with ${res.statusCode}`), { status: res.statusCode }));
      res.resume();
      ws.terminate();
    });
    ws.once('error', reject);
  });
}

function nextMessage(ws: WebSocket): Promise<{ data: Buffer; binary: boolean }> {
  return new Promise((resolve, reject) => {
    ws.once('message', (data, binary) => resolve({ data: data as Buffer, binary }));
    ws.once('close', (code) => reject(new Error(`closed with ${code} before a message`)));
  });
}

function closed(ws: WebSocket): Promise<Closed> {
  return new Promise((resolve) => ws.once('close', (code, reason) => resolve({ code, reason: reason.toString() })));
}

/** One HTTP/1.1 request on a fresh connection; everything the server sends until it closes (or 3 s). */
function rawRequest(base: string, path: string, headers: Record<string, string>): Promise<string> {
  const { hostname, port } = new URL(base);
  return new Promise((resolve, reject) => {
    const socket = connectTcp(Number(port), hostname, () => {
      const lines = [`GET ${path} HTTP/1.1`, `Host: ${hostname}:${port}`, ...Object.entries(headers).map(([k, v]) => `${k}: ${v}`)];
      socket.write(`${lines.join('\r\n')}\r\n\r\n`);
    });
    let out = '';
    const timer = setTimeout(() => socket.destroy(), 3000);
    socket.on('data', (chunk) => (out += chunk.toString('latin1')));
    socket.on('close', () => {
      clearTimeout(timer);
      resolve(out);
    });
    socket.on('error', reject);
  });
}

/** The events of a text/event-stream body, as field lists. */
function parseEvents(text: string): Record<string, string>[] {
  return text
    .split('\n\n')
    .filter((block) => block.trim() !== '')
    .map((block) => {
      const event: Record<string, string> = {};
      for (const line of block.split('\n')) {
        const i = line.indexOf(':');
        if (i === 0) continue;
        event[line.slice(0, i)] = line.slice(i + 1).replace(/^ /, '');
      }
      return event;
    });
}

describe.each(CONFORMANCE_RUNTIMES)('examples/realtime on %s', (runtime) => {
  let server: Running;
  let wsUrl: string;
  beforeAll(async () => {
    server = await start(runtime, 'examples/realtime');
    wsUrl = `${server.url.replace('http://', 'ws://')}/ws`;
  }, 60_000);
  afterAll(() => server?.stop());

  it('GET /sse sends three tick events and ends', async () => {
    const res = await fetch(`${server.url}/sse`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('text/event-stream');
    expect(res.headers.get('cache-control')).toBe('no-cache');
    expect(res.headers.get('x-accel-buffering')).toBe('no');
    const events = parseEvents(await res.text());
    expect(events).toEqual([1, 2, 3].map((n) => ({ event: 'tick', id: String(n), data: `{"n":${n}}` })));
  });

  it('GET /sse with Last-Event-ID: 2 sends only id 3', async () => {
    const res = await fetch(`${server.url}/sse`, { headers: { 'last-event-id': '2' } });
    expect(parseEvents(await res.text())).toEqual([{ event: 'tick', id: '3', data: '{"n":3}' }]);
  });

  it('HEAD on a stream that never ends answers its headers, ends, and stops the producer', async () => {
    type Producers = { running: number; stopped: number; sent: number };
    const producers = async () => (await (await fetch(`${server.url}/sse/producers`)).json()) as Producers;
    const before = await producers();
    // Two requests on one connection: the second is answered only once the HEAD answer has ended.
    const { port } = new URL(server.url);
    const socket = connectTcp(Number(port), '127.0.0.1');
    let text = '';
    const both = new Promise<string>((resolve, reject) => {
      socket.on('data', (d: Buffer) => {
        text += d.toString('latin1');
        if (/\r\n\r\nrove realtime example[^\n]*\n$/.test(text)) resolve(text);
      });
      socket.on('error', reject);
      socket.on('close', () => reject(new Error(`closed after ${JSON.stringify(text)}`)));
    });
    socket.write('HEAD /sse/endless HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\nGET / HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n');
    const timer = setTimeout(() => socket.destroy(new Error(`no second answer in 5 s, after ${JSON.stringify(text)}`)), 5000);
    const answers = await both.finally(() => {
      clearTimeout(timer);
      socket.destroy();
    });
    const [head, rest] = [answers.slice(0, answers.indexOf('\r\n\r\n') + 4), answers.slice(answers.indexOf('\r\n\r\n') + 4)];
    expect(head).toMatch(/^HTTP\/1\.1 200 /);
    expect(head.toLowerCase()).toContain('content-type: text/event-stream');
    expect(rest).toMatch(/^HTTP\/1\.1 200 /); // no body bytes between the two answers
    let now = await producers();
    for (let i = 0; i < 100 && now.running > before.running; i++) {
      await new Promise((r) => setTimeout(r, 50));
      now = await producers();
    }
    expect(now.running).toBe(before.running);
  });

  it('a client that disconnects mid-SSE stops the producer', async () => {
    type Producers = { running: number; stopped: number; sent: number };
    const producers = async () => (await (await fetch(`${server.url}/sse/producers`)).json()) as Producers;
    const before = await producers();
    const controller = new AbortController();
    const res = await fetch(`${server.url}/sse/endless`, { signal: controller.signal });
    const reader = res.body!.getReader();
    let seen = '';
    while (!seen.includes('data: 3\n')) seen += new TextDecoder().decode((await reader.read()).value);
    controller.abort();
    await reader.cancel().catch(() => {});
    if (runtime === 'workerd') {
      // workerd drops the request's pending work when the client leaves: no finally runs, no send happens.
      await new Promise((r) => setTimeout(r, 200));
      const settled = await producers();
      await new Promise((r) => setTimeout(r, 300));
      expect((await producers()).sent).toBe(settled.sent);
      return;
    }
    // The server notices at once through the cancelled body, or at its next write (every 20 ms).
    let now = before;
    for (let i = 0; i < 100 && now.stopped <= before.stopped; i++) {
      await new Promise((r) => setTimeout(r, 50));
      now = await producers();
    }
    expect(now.stopped).toBe(before.stopped + 1);
    expect(now.running).toBe(before.running);
  });

  it('GET /ws echoes text as text and binary as the same bytes', async () => {
    const ws = await connect(wsUrl);
    try {
      ws.send('hello, ünïcode ✓');
      const text = await nextMessage(ws);
      expect(text.binary).toBe(false);
      expect(text.data.toString()).toBe('hello, ünïcode ✓');
      const bytes = new Uint8Array([0, 1, 2, 253, 254, 255]);
      ws.send(bytes);
      const binary = await nextMessage(ws);
      expect(binary.binary).toBe(true);
      expect([...binary.data]).toEqual([...bytes]);
      // Exactly 64 KiB is still allowed.
      ws.send('x'.repeat(65_536));
      expect((await nextMessage(ws)).data.byteLength).toBe(65_536);
    } finally {
      ws.close();
    }
  });

  it('a message over 64 KiB closes the socket with 1009', async () => {
    const ws = await connect(wsUrl);
    const end = closed(ws);
    ws.send(new Uint8Array(65_537));
    expect((await end).code).toBe(1009);
  });

  it('an upgrade from another origin is refused with 403; none or its own is allowed', async () => {
    await expect(connect(wsUrl, { origin: 'https://evil.example' })).rejects.toMatchObject({ status: 403 });
    const own = await connect(wsUrl, { origin: server.url });
    own.close();
    const none = await connect(wsUrl);
    none.close();
  });

  it('refuses hostile origins and handshakes with clear 4xx, never an upgrade', async () => {
    for (const origin of ['null', 'https://127.0.0.1.evil.example', `${server.url}.evil.example`, 'http://evil.example@127.0.0.1']) {
      await expect(connect(wsUrl, { origin })).rejects.toMatchObject({ status: 403 });
    }
    const handshake = { connection: 'Upgrade', upgrade: 'websocket', 'sec-websocket-version': '13' };
    const badKey = await rawRequest(server.url, '/ws', { ...handshake, 'sec-websocket-key': 'not-a-key' });
    expect(badKey).toMatch(/^HTTP\/1\.1 400 /);
    const badVersion = await rawRequest(server.url, '/ws', { ...handshake, 'sec-websocket-version': '8', 'sec-websocket-key': 'dGhlIHNhbXBsZSBub25jZQ==' });
    expect(badVersion).toMatch(/^HTTP\/1\.1 426 /);
  });

  it('an upgrade request to a route that is not a WebSocket gets that route’s answer', async () => {
    const answer = await rawRequest(server.url, '/sse', {
      connection: 'Upgrade',
      upgrade: 'websocket',
      'sec-websocket-version': '13',
      'sec-websocket-key': 'dGhlIHNhbXBsZSBub25jZQ==',
    });
    expect(answer).toMatch(/^HTTP\/1\.1 200 /);
    expect(answer).toContain('data: {"n":3}');
  });

  it('GET /ws without an upgrade answers 426', async () => {
    const res = await fetch(`${server.url}/ws`);
    expect(res.status).toBe(426);
    // workerd drops the Upgrade header from any response that is not a 101.
    if (runtime !== 'workerd') expect(res.headers.get('upgrade')).toBe('websocket');
    expect(res.headers.get('content-type')).toBe('application/problem+json');
    await res.text();
  });
});
