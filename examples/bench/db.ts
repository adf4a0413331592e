// The DB scenarios in Rove (bench/lib/db-scenarios.ts): the shared queries of
// bench/shared/db.ts behind ordinary routes, the fortunes page through views.
// Kept out of app.ts so the other bench bundles do not carry the driver.

import { type DbSource, fortunes, oneWorld, queriesCount, sql1, sql2, updateWorlds, withDb, worlds } from '../../bench/shared/db.ts';
import { dbFromEnv } from '../../bench/shared/db-env.ts';
import type { App } from '../../src/index.ts';

export function addDbRoutes<A extends App<any>>(app: A, db: DbSource): A {
  app.get('/sql1', async (c) => c.json(await withDb(db, c.env, c.executionCtx, sql1)));
  app.get('/sql2', async (c) => c.json(await withDb(db, c.env, c.executionCtx, (sql) => sql2(sql))));
  app.get('/db', async (c) => c.json(await withDb(db, c.env, c.executionCtx, (sql) => oneWorld(sql))));
  app.get('/queries', async (c) => {
    const n = queriesCount(c.req.query('q'));
    return c.json(await withDb(db, c.env, c.executionCtx, (sql) => worlds(sql, n)));
  });
  app.get('/updates', async (c) => {
    const n = queriesCount(c.req.query('q'));
    return c.json(await withDb(db, c.env, c.executionCtx, (sql) => updateWorlds(sql, n)));
  });
  app.get('/fortunes-db', async (c) => c.render('fortunes', { fortunes: await withDb(db, c.env, c.executionCtx, fortunes) }));
  return app;
}

/** The DB routes when DATABASE_URL is set (the runner's `db` variant); the app unchanged otherwise. */
export function dbRoutesFromEnv<A extends App<any>>(app: A, get: (name: string) => string | undefined): A {
  const db = dbFromEnv(get);
  return db ? addDbRoutes(app, db) : app;
}
