// Hono's side: streamSSE from hono/streaming, and the runtime's own upgradeWebSocket when it has one.
import { Hono } from 'hono';
import { streamSSE } from 'hono/streaming';
import type { UpgradeWebSocket } from 'hono/ws';

export function makeApp(upgradeWebSocket?: UpgradeWebSocket<any>): Hono {
  const app = new Hono();
  app.get('/', (c) => c.text('ok'));
  app.get('/sse', (c) =>
    streamSSE(c, async (stream) => {
      for (let n = 0; !stream.aborted; n++) await stream.writeSSE({ data: JSON.stringify({ n }) });
    }),
  );
  if (upgradeWebSocket)
    app.get(
      '/ws',
      upgradeWebSocket(() => ({ onMessage: (event, ws) => ws.send(event.data as string) })),
    );
  return app;
}
