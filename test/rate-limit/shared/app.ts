// One app, run as several server processes that share one Redis (test/rate-limit/shared.test.ts):
// sessions and the rate limit live in Redis, so a login on one process is seen by the others,
// and the limit counts requests to all of them together.
import { App } from 'rove';
import { rateLimit, redisStore } from 'rove/rate-limit';
import { getSession, redisStore as redisSessionStore, session } from 'rove/session';
import type { RespClient } from '../../../dev/resp.ts';

export function makeApp(redis: RespClient, runtime: string, secret: string): App {
  const app = new App();
  app.get('/', (c) => c.text(runtime));
  app.use('/limited', rateLimit({ window: 60, limit: 5, store: redisStore(redis), onStoreError: 'close' }));
  app.get('/limited', (c) => c.text(runtime));
  app.use('/account', session({ keys: [secret], store: redisSessionStore(redis) }));
  app.post('/account/login', async (c) => {
    await getSession(c).regenerate();
    await getSession(c).set('user', `ann@${runtime}`);
    return c.text('in');
  });
  app.get('/account/me', async (c) => c.json({ user: (await getSession(c).get('user')) ?? null, on: runtime }));
  app.post('/account/logout', async (c) => {
    await getSession(c).destroy();
    return c.text('out');
  });
  return app;
}
