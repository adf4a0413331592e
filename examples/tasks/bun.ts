// Bun: npm run tasks:bun. The same settings as node.ts.
import { serve } from 'rove/bun';
import { createTasksApp } from './app.ts';
import { optionsFrom } from './config.ts';
import { lockFrom } from './lock.ts';

const { app } = createTasksApp({ ...optionsFrom(Bun.env), lock: await lockFrom(Bun.env.REDIS_URL) });
serve(app, {
  port: Number(Bun.env.PORT ?? 8000),
  hostname: Bun.env.HOST ?? '127.0.0.1',
  shutdownTimeoutMs: Number(Bun.env.SHUTDOWN_MS ?? 10_000),
});
