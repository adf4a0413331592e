// A small app over the thread pool and the event bus, used by test/threads
// and test/events: it records every event so tests can read them over HTTP.
import { App, type RoveEvent } from 'rove';
import { createThreadPool, type ThreadPoolOptions } from 'rove/threads';

export interface ExampleOptions extends Partial<Omit<ThreadPoolOptions, 'module' | 'load'>> {
  dev?: boolean;
}

export function makeApp(options: ExampleOptions = {}) {
  const { dev, ...poolOptions } = options;
  const pool = createThreadPool({
    // A function: on Workers import.meta.url is undefined, and threads are never spawned there.
    module: () => new URL('./tasks.ts', import.meta.url),
    load: () => import('./tasks.ts'),
    ...poolOptions,
  });
  const app = new App({ threads: pool, dev });

  const events: unknown[] = [];
  const late: string[] = [];
  app.on((event) => {
    events.push(toRecord(event));
    if (events.length > 500) events.splice(0, events.length - 500);
  });
  // Async listener work: Workers keep it alive through waitUntil after the response is sent.
  app.on('request:complete', async (event) => {
    await new Promise((resolve) => setTimeout(resolve, 20));
    late.push(event.metadata.path);
  });

  const num = (v: string | undefined, fallback: number) => (v === undefined ? fallback : Number(v));

  app.get('/', (c) => c.text('ok'));
  app.get('/cpu', async (c) => c.json({ value: await c.threads.run<number>(num(c.req.query('n'), 50_000), { task: 'cpu' }) }));
  app.get('/spin', async (c) => c.json({ ms: await c.threads.run(num(c.req.query('ms'), 100), { task: 'spin' }) }));
  app.get('/sleep', async (c) => c.json({ ms: await c.threads.run(num(c.req.query('ms'), 100), { task: 'sleep' }) }));
  app.get('/crash', async (c) => c.json(await c.threads.run(null, { task: 'crash' })));
  app.get('/fail', async (c) => c.json(await c.threads.run(null, { task: 'fail' })));
  app.get('/invalid', async (c) => c.json(await c.threads.run('nope', { task: 'invalid' })));
  app.post('/echo', async (c) => c.json(await c.threads.run(await c.req.json(), { task: 'echo' })));
  app.get('/events', (c) => c.json(events));
  app.get('/late', (c) => c.json(late));
  app.get('/stats', (c) => c.json(pool.stats));
  app.get('/unhandled', (c) => {
    void Promise.reject(new Error('a stray rejection'));
    return c.text('scheduled');
  });

  return { app, pool, events };
}

/** An event as JSON: errors become their name and message. */
export function toRecord(event: RoveEvent): unknown {
  return JSON.parse(JSON.stringify(event, (_key, value) => (value instanceof Error ? { name: value.name, message: value.message } : value)));
}

/** Pool settings from the environment (POOL_SIZE, TIMEOUT_MS, MAX_QUEUE, POOL_PRIORITY, ROVE_DEV). */
export function optionsFrom(env: (name: string) => string | undefined): ExampleOptions {
  const n = (name: string) => (env(name) === undefined ? undefined : Number(env(name)));
  const priority = env('POOL_PRIORITY');
  return {
    size: n('POOL_SIZE'),
    timeoutMs: n('TIMEOUT_MS'),
    maxQueue: n('MAX_QUEUE'),
    ...(priority === 'low' || priority === 'normal' ? { priority } : {}),
    dev: env('ROVE_DEV') === '1',
  };
}
