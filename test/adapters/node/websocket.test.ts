// WebSockets on Node are passed in (`webSockets` from rove/node/websocket): with a server of your
// own, upgrades complete only with toNodeUpgradeListener(app, webSockets); serve() without them
// answers a WebSocket route 501 and logs one line saying what to pass.
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { describe, expect, it, vi } from 'vitest';
import WebSocket from 'ws';
import { serve, toNodeListener, toNodeUpgradeListener } from '../../../adapters/node/index.ts';
import { webSockets } from '../../../adapters/node/websocket.ts';
import { App } from '../../../src/index.ts';
import { upgradeWebSocket } from '../../../src/websocket/index.ts';

function makeApp(): App {
  const app = new App();
  app.get(
    '/ws',
    upgradeWebSocket(() => ({ onMessage: (d, ws) => void ws.send(d) })),
  );
  return app;
}

/** The status a WebSocket handshake to `url` gets instead of a 101. */
function refusedWith(url: string): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(url);
    ws.once('unexpected-response', (_req, res) => {
      let body = '';
      res.on('data', (c: Buffer) => (body += c));
      res.on('end', () => {
        resolve({ status: res.statusCode ?? 0, body });
        ws.terminate();
      });
    });
    ws.once('open', () => reject(new Error('opened')));
    ws.once('error', () => {});
  });
}

async function listen(server: ReturnType<typeof createServer>): Promise<string> {
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return `ws://127.0.0.1:${(server.address() as AddressInfo).port}/ws`;
}

describe('toNodeUpgradeListener', () => {
  it('completes upgrades on a server built with toNodeListener', async () => {
    const app = makeApp();
    const server = createServer(toNodeListener(app));
    server.on('upgrade', toNodeUpgradeListener(app, webSockets));
    const url = await listen(server);
    try {
      const ws = new WebSocket(url);
      await new Promise((r) => ws.once('open', r));
      ws.send('ping');
      const echo = await new Promise<string>((r) => ws.once('message', (d) => r(d.toString())));
      expect(echo).toBe('ping');
      const closed = new Promise((r) => ws.once('close', r));
      ws.close();
      await closed;
    } finally {
      server.closeAllConnections();
      await new Promise((r) => server.close(r));
    }
  });

  it('without it, a WebSocket route answers 501 naming the fix, not a bare 200', async () => {
    const server = createServer(toNodeListener(makeApp()));
    const url = await listen(server);
    try {
      const status = await new Promise<number>((resolve, reject) => {
        const ws = new WebSocket(url);
        ws.once('unexpected-response', (_req, res) => {
          resolve(res.statusCode ?? 0);
          res.resume();
          ws.terminate();
        });
        ws.once('open', () => reject(new Error('opened')));
        ws.once('error', () => {});
      });
      expect(status).toBe(501);
    } finally {
      server.closeAllConnections();
      await new Promise((r) => server.close(r));
    }
  });
});

describe('serve() on Node and WebSockets', () => {
  it('with webSockets, a WebSocket route upgrades', async () => {
    const server = serve(makeApp(), { port: 0, hostname: '127.0.0.1', onListen: () => {}, handleSignals: false, webSockets });
    await server.ready;
    try {
      const ws = new WebSocket(`ws://127.0.0.1:${server.port}/ws`);
      await new Promise((r) => ws.once('open', r));
      ws.send('hi');
      expect(await new Promise<string>((r) => ws.once('message', (d) => r(d.toString())))).toBe('hi');
      ws.close();
    } finally {
      await server.close();
    }
  });

  it('without it, the upgrade answers 501 naming the import, and one line is logged', async () => {
    const logged = vi.spyOn(console, 'error').mockImplementation(() => {});
    const server = serve(makeApp(), { port: 0, hostname: '127.0.0.1', onListen: () => {}, handleSignals: false });
    await server.ready;
    try {
      const url = `ws://127.0.0.1:${server.port}/ws`;
      const first = await refusedWith(url);
      expect(first.status).toBe(501);
      expect(first.body).toContain("import { webSockets } from 'rove/node/websocket'");
      expect((await refusedWith(url)).status).toBe(501);
      const lines = logged.mock.calls.map((c) => String(c[0])).filter((l) => l.includes('WebSocket'));
      expect(lines).toHaveLength(1);
      expect(lines[0]).toContain('serve(app, { webSockets })');
    } finally {
      logged.mockRestore();
      await server.close();
    }
  });

  it('anything else where webSockets goes throws, saying what to import', () => {
    // @ts-expect-error: webSockets takes the value from rove/node/websocket
    expect(() => serve(makeApp(), { port: 0, webSockets: true })).toThrow(/import \{ webSockets \} from 'rove\/node\/websocket'/);
  });
});
