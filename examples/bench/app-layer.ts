// The app-layer scenarios of the bench (docs/benchmarks/methods.md) with Rove's
// middleware: static files with ETags, a session read from the default cookie store
// (AES-GCM), a CORS preflight, the default security headers and a CSRF-checked form
// post. Each middleware covers its own routes only, so the other scenarios don't pay for it.
// The static middleware comes from the entry: it reads files in a runtime's own way.
import {
  CORS_MAX_AGE,
  CORS_METHODS,
  CORS_ORIGIN,
  PUBLIC_DIR,
  RATE_LIMIT,
  RATE_WINDOW_S,
  REDIS_SESSION_PREFIX,
  SESSION_DATA,
  SESSION_SECRET,
  STATIC_CACHE_CONTROL,
} from '../../bench/shared/app-layer.ts';
import type { Handler } from '../../src/core/compose.ts';
import type { App } from '../../src/index.ts';
import { cors } from '../../src/middleware/cors/index.ts';
import { csrf, csrfToken } from '../../src/middleware/csrf/index.ts';
import { rateLimit, memoryStore as rateMemoryStore } from '../../src/middleware/rate-limit/index.ts';
import { secureHeaders } from '../../src/middleware/secure-headers/index.ts';
import { getSession, type RedisLike, redisStore, session } from '../../src/middleware/session/index.ts';
import type { ServeStaticOptions } from '../../src/middleware/static/index.ts';

export interface AppLayerOptions {
  /** `serveStatic` of the runtime (rove/static resolves to it through the export conditions). */
  serveStatic?: (options: ServeStaticOptions) => Handler;
  /** The process's Redis client (the `session-read-redis` scenario); without one /session-redis answers 501. */
  redis?: RedisLike;
}

function notYet(feature: string) {
  return { title: 'Not Implemented', status: 501, detail: `${feature} is not available in this Rove build yet` };
}

export function addAppLayer(app: App<any>, o: AppLayerOptions = {}): void {
  if (o.serveStatic) app.use('/static', o.serveStatic({ root: PUBLIC_DIR, prefix: '/static', cacheControl: STATIC_CACHE_CONTROL }));
  else app.get('/static/*', (c) => c.json(notYet('rove/static on this runtime'), 501));

  // The default store: the session sealed in the cookie (AES-GCM), nothing on the server.
  const sessions = session({ keys: [SESSION_SECRET] });
  app.get('/session/start', sessions, async (c) => {
    await getSession(c).set('user', SESSION_DATA.user);
    await getSession(c).set('visits', SESSION_DATA.visits);
    return c.json({ token: await csrfToken(c) });
  });
  app.get('/session', sessions, async (c) => c.json({ user: await getSession(c).get('user'), visits: await getSession(c).get('visits') }));

  // session-read-redis: a server-side session in the bench's redis-server (one client per process).
  if (o.redis) {
    const redisSessions = session({ keys: [SESSION_SECRET], name: 'rsid', store: redisStore(o.redis, { prefix: REDIS_SESSION_PREFIX }) });
    app.get('/session-redis/start', redisSessions, async (c) => {
      await getSession(c).set('user', SESSION_DATA.user);
      await getSession(c).set('visits', SESSION_DATA.visits);
      return c.json({ ok: true });
    });
    app.get('/session-redis', redisSessions, async (c) => c.json({ user: await getSession(c).get('user'), visits: await getSession(c).get('visits') }));
  } else {
    const missing: Handler = (c) => c.json(notYet('a Redis client (REDIS_URL)'), 501);
    app.get('/session-redis', missing);
    app.get('/session-redis/start', missing);
  }

  // rate-limited: a memory-store limit keyed by client address (c.req.ip), high enough never to trip.
  app.get('/limited', rateLimit({ window: RATE_WINDOW_S, limit: RATE_LIMIT, store: rateMemoryStore() }), (c) => c.json({ ok: true }));

  app.use('/api', cors({ origin: CORS_ORIGIN, methods: CORS_METHODS, headers: ['content-type'], maxAge: CORS_MAX_AGE }));
  app.get('/api/data', (c) => c.json({ ok: true }));
  app.post('/api/data', (c) => c.json({ ok: true }));

  app.get('/secure', secureHeaders(), (c) => c.json({ ok: true }));

  // The Origin check and the session-bound token of the form.
  app.post('/form', sessions, csrf(), async (c) => {
    const form = await c.req.form();
    return c.text(`ok ${form.name}`);
  });
}
