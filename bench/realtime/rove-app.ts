// Rove's side of the realtime bench: /sse sends small events as fast as the client reads, /ws echoes.
import { App } from 'rove';
import { sse } from 'rove/sse';
import { upgradeWebSocket } from 'rove/websocket';

export const app = new App();
app.get('/', (c) => c.text('ok'));
app.get('/sse', (c) =>
  sse(c, async (stream) => {
    for (let n = 0; !stream.aborted; n++) await stream.send({ data: { n } });
  }),
);
app.get(
  '/ws',
  upgradeWebSocket(() => ({ onMessage: (data, ws) => void ws.send(data) })),
);
