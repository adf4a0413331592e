import { upgradeWebSocket, websocket } from 'hono/bun';
import { makeApp } from './hono-app.ts';

// Bun.serve with websocket handlers: types/runtimes.d.ts declares only what the other entries use.
(Bun as unknown as { serve(options: object): unknown }).serve({
  port: Number(Bun.env.PORT ?? 8000),
  hostname: Bun.env.HOST ?? '127.0.0.1',
  fetch: makeApp(upgradeWebSocket).fetch,
  websocket,
});
