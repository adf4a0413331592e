// docs/scaling.md's Redis set-up, as written there, on Node: the outage test stops Redis under it.

import { createClient } from 'redis';
import { App } from 'rove';
import { serve } from 'rove/node';
import { rateLimit, redisStore } from 'rove/rate-limit';
import { getSession, redisStore as redisSessionStore, session } from 'rove/session';

const redis = createClient({ url: process.env.REDIS_URL, disableOfflineQueue: true });
// node-redis reports a lost connection as an 'error' event: without a listener Node exits.
redis.on('error', (error: Error) => console.error('redis:', error.message));
await redis.connect();

const app = new App();
app.use('/session', session({ keys: ['outage-test-secret-0123456789abcdef'], store: redisSessionStore(redis) }));
app.get('/session', async (c) => {
  const visits = ((await getSession(c).get<number>('visits')) ?? 0) + 1;
  await getSession(c).set('visits', visits);
  return c.json({ visits });
});
app.use('/limited', rateLimit({ window: 60, limit: 100, store: redisStore(redis), onStoreError: 'close' }));
app.get('/limited', (c) => c.text('counted'));
app.get('/', (c) => c.text('ok'));

serve(app, { port: Number(process.env.PORT ?? 8000), hostname: process.env.HOST ?? '127.0.0.1' });
