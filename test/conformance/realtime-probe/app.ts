// The realtime probe: WebSocket behaviour beyond examples/realtime's contract (idle timeout,
// subprotocols, headers on the 101, server close codes, backpressure, events), on every runtime.
import { App } from 'rove';
import { upgradeWebSocket } from 'rove/websocket';

export const app = new App();
const seen: string[] = [];
app.on('ws:open', (e) => void seen.push(`open ${e.metadata.path}`));
app.on('ws:close', (e) => void seen.push(`close ${e.metadata.path} ${e.metadata.code}`));
app.on('ws:error', (e) => void seen.push(`error ${e.metadata.path} ${(e.metadata.error as Error)?.message}`));

app.get('/', (c) => c.text('realtime probe'));
app.get('/events', (c) => c.json(seen));

app.get(
  '/ws/idle',
  upgradeWebSocket(() => ({}), { idleTimeoutMs: 1000 }),
);

app.use('/ws/proto', (c, next) => {
  c.header('x-probe', 'yes');
  return next();
});
app.get(
  '/ws/proto',
  upgradeWebSocket(() => ({ onOpen: (ws) => void ws.send(`protocol=${ws.protocol}`) }), { protocols: ['chat.v2', 'chat.v1'] }),
);

app.get(
  '/ws/close',
  upgradeWebSocket(() => ({
    onMessage: (data, ws) => {
      if (data === 'throw') throw new Error('handler failed');
      ws.close(4000, 'bye');
    },
  })),
);

// 200 messages of 16 KiB, each send awaited: backpressure must not lose or reorder anything.
app.get(
  '/ws/flood',
  upgradeWebSocket(() => ({
    onOpen: async (ws) => {
      const chunk = 'x'.repeat(16_384);
      for (let i = 0; i < 200; i++) await ws.send(`${i}:${chunk}`);
      ws.close(1000, 'done');
    },
  })),
);
