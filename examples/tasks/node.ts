// Node: npm run tasks:node. croner runs the schedule in this process. PORT, HOST, TRIGGER=1,
// SHUTDOWN_MS, PROCESSES (a group: the schedule runs in one of them) and REDIS_URL (a lock:
// each tick runs once across every server that shares the Redis).
import { serve } from 'rove/node';
import { processGroup } from 'rove/node/processes';
import { createTasksApp } from './app.ts';
import { optionsFrom } from './config.ts';
import { lockFrom } from './lock.ts';

const { app } = createTasksApp({ ...optionsFrom(process.env), lock: await lockFrom(process.env.REDIS_URL) });
serve(app, {
  port: Number(process.env.PORT ?? 8000),
  hostname: process.env.HOST ?? '127.0.0.1',
  shutdownTimeoutMs: Number(process.env.SHUTDOWN_MS ?? 10_000),
  processes: process.env.PROCESSES ? processGroup(Number(process.env.PROCESSES)) : undefined,
});
