// Items that expire, removed by a nightly task, with an audit line written in the background,
// and a heartbeat every minute that /health reports: the same app and the same tasks on Node,
// Deno, Bun, Deno Deploy and Workers (see docs/scheduling.md).
import { App } from 'rove';
import { type TaskLock, tasks, taskTrigger } from 'rove/tasks';
import { ItemStore } from './item-store.ts';

export interface TasksAppOptions {
  /** Serve /__scheduled, which runs a task on demand (development and tests only). */
  trigger?: boolean;
  /** How long the audit write takes, in ms: a slow store, to show shutdown waiting for it. */
  auditDelayMs?: number;
  /** How long each heartbeat's check, and then its save, take, in ms. */
  heartbeatMs?: number;
  /** Where processes agree who runs a tick (`redisLock`), when several run the schedule. */
  lock?: TaskLock;
}

const pause = (ms: number) => (ms > 0 ? new Promise((r) => setTimeout(r, ms)) : Promise.resolve());

/**
 * The example app and its task list.
 *
 * @example
 * const { app } = createTasksApp({ trigger: true });
 * serve(app, { port: 8000 });
 */
export function createTasksApp(o: TasksAppOptions = {}): { app: App; jobs: ReturnType<typeof tasks> } {
  const store = new ItemStore();
  const audit = async (line: string) => {
    await pause(o.auditDelayMs ?? 0);
    store.audit(line);
    console.log(`audit: ${line}`);
  };

  const jobs = tasks({ lock: o.lock })
    .cron('cleanup', '0 3 * * *', (t) => {
      const removed = store.removeExpired(Date.now());
      t.waitUntil(audit(`${t.name} removed ${removed}`));
    })
    .cron('heartbeat', '* * * * *', async (t) => {
      console.log(`heartbeat start ${t.scheduledTime}`);
      await pause(o.heartbeatMs ?? 0); // the check itself
      // Its result is saved in the background: a shutdown waits for that too.
      t.waitUntil(
        pause(o.heartbeatMs ?? 0).then(() => {
          store.beat(t.scheduledTime);
          console.log(`heartbeat saved ${t.scheduledTime}`);
        }),
      );
    });

  const app = new App({ tasks: jobs });
  app.on('task:skipped', (e) => console.log(`skipped ${e.metadata.name} ${e.metadata.scheduledTime}: ${e.metadata.reason}`));

  app.get('/', (c) => c.json({ items: store.size }));
  app.get('/items', (c) => c.json(store.list()));
  app.post('/items', async (c) => {
    const body = await c.req.json<{ text?: unknown; ttlSeconds?: unknown }>();
    const text = typeof body.text === 'string' ? body.text.trim().slice(0, 200) : '';
    const ttl = typeof body.ttlSeconds === 'number' && Number.isFinite(body.ttlSeconds) ? Math.max(0, body.ttlSeconds) : 86_400;
    if (text === '') return c.json({ error: 'text is required' }, 400);
    return c.json(store.add(text, Date.now() + ttl * 1000), 201);
  });
  app.get('/audit', (c) => c.json(store.auditLog()));
  app.get('/health', (c) => c.json({ lastHeartbeat: store.lastBeat }));
  if (o.trigger) app.get('/__scheduled', taskTrigger(jobs));
  return { app, jobs };
}

/** The app with its default settings: what `npx rove crons examples/tasks/app.ts` reads. */
export const app: App = createTasksApp().app;
