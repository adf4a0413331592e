// Where a request's PostgreSQL connection comes from, the one thing that differs
// between runtimes. Either way the handler reads it as `c.get('sql')`.
//
// - A server process (Node, Deno, Bun) or a Deno Deploy isolate keeps one pool,
//   opened from DATABASE_URL on first use, and closes it when the server shuts
//   down, once the requests still running have finished.
// - A Workers isolate cannot keep one: a socket belongs to the request that
//   opened it. Each request opens one connection (to Hyperdrive in production,
//   which pools in front of the database) and closes it after the response.
import postgres from 'postgres';
import type { App } from 'rove';

export type Sql = postgres.Sql;
export type Vars = { Variables: { sql: Sql } };

/**
 * One pool for this process or isolate. `max` is its size (postgres.js opens
 * connections as requests need them, up to `max`).
 *
 * @example
 * pooled(app, process.env.DATABASE_URL, { max: 10 });
 */
export function pooled(app: App<Vars>, url: string | undefined, options: { max?: number } = {}): Sql {
  if (!url) throw new Error('DATABASE_URL is not set (e.g. postgres://user:password@host:5432/db)');
  const sql = postgres(url, { max: options.max ?? 10, onnotice: () => {} });
  let inFlight = 0;
  let idle: (() => void) | undefined;
  app.use(async (c, next) => {
    inFlight++;
    c.set('sql', sql);
    try {
      await next();
    } finally {
      if (--inFlight === 0) idle?.();
    }
  });
  // serve() waits for this listener within its grace period: end the pool after the last request.
  app.on('server:shutdown', async () => {
    if (inFlight > 0) await new Promise<void>((resolve) => (idle = resolve));
    await sql.end({ timeout: 5 });
  });
  return sql;
}

/**
 * A connection per request, closed after the response (Cloudflare Workers).
 * `url(env)` picks the connection string from the bindings.
 *
 * @example
 * perRequest(app, (env) => env.HYPERDRIVE?.connectionString ?? env.DATABASE_URL);
 */
export function perRequest(app: App<Vars>, url: (env: Record<string, any>) => string | undefined): void {
  app.use(async (c, next) => {
    const connectionString = url(c.env as Record<string, any>);
    if (!connectionString) throw new Error('no database: set the HYPERDRIVE binding or DATABASE_URL');
    // fetch_types: false saves a round trip per connection (this app uses no custom types).
    const sql = postgres(connectionString, { max: 1, fetch_types: false, onnotice: () => {} });
    c.set('sql', sql);
    try {
      await next();
    } finally {
      c.executionCtx.waitUntil(sql.end({ timeout: 5 }));
    }
  });
}
