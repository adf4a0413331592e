// rove/node with a server of your own: upgrades complete only with toNodeUpgradeListener.
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { toNodeListener, toNodeUpgradeListener } from '../../../adapters/node/index.ts';
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

async function listen(server: ReturnType<typeof createServer>): Promise<string> {
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return `ws://127.0.0.1:${(server.address() as AddressInfo).port}/ws`;
}

describe('toNodeUpgradeListener', () => {
  it('completes upgrades on a server built with toNodeListener', async () => {
    const app = makeApp();
    const server = createServer(toNodeListener(app));
    server.on('upgrade', toNodeUpgradeListener(app));
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
