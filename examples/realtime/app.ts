// The realtime example: Server-Sent Events and a WebSocket echo, the same on five runtimes.
import { App } from 'rove';
import { sse } from 'rove/sse';
import { upgradeWebSocket } from 'rove/websocket';

export const app = new App();

app.get('/', (c) => c.text('rove realtime example: GET /sse (events), GET /ws (WebSocket echo)\n'));

// Three ticks, ids 1 to 3; a client reconnecting with Last-Event-ID: 2 gets only the third.
app.get('/sse', (c) =>
  sse(c, async (stream) => {
    const last = Number(stream.lastEventId ?? 0);
    const from = Number.isInteger(last) && last > 0 ? last : 0;
    for (let id = from + 1; id <= 3; id++) await stream.send({ event: 'tick', id, data: { n: id } });
  }),
);

// Echo: text comes back as text, binary as binary. Over 64 KiB: closed with 1009.
// Pages from other origins get 403 (no Origin, or this server's own, may connect).
app.get(
  '/ws',
  upgradeWebSocket(() => ({
    onMessage: (data, ws) => ws.send(data),
  })),
);

// For the tests: a producer that runs until its client leaves, and what became of producers.
const producers = { running: 0, stopped: 0, sent: 0 };
app.get('/sse/endless', (c) =>
  sse(c, async (stream) => {
    producers.running++;
    try {
      for (let n = 1; !stream.aborted; n++) {
        await stream.send({ data: n });
        producers.sent++;
        await stream.sleep(20);
      }
    } finally {
      producers.running--;
      producers.stopped++;
    }
  }),
);
app.get('/sse/producers', (c) => c.json(producers));
