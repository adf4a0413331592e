// The DB scenarios in idiomatic Hono, on the shared queries of bench/shared/db.ts.
import type { Hono } from 'hono';
import { html } from 'hono/html';
import { type DbSource, fortunes, oneWorld, queriesCount, sql1, sql2, updateWorlds, withDb, worlds } from '../shared/db.ts';
import { dbFromEnv } from '../shared/db-env.ts';

// Hono's c.executionCtx throws outside Workers: read it only when the source needs it.
type Ctx = { env: unknown; executionCtx: { waitUntil(p: Promise<unknown>): void } };
const ctxOf = (c: Ctx) => () => c.executionCtx;

export function addDbRoutes<A extends Hono<any>>(app: A, db: DbSource): A {
  app.get('/sql1', async (c) => c.json(await withDb(db, c.env, ctxOf(c), sql1)));
  app.get('/sql2', async (c) => c.json(await withDb(db, c.env, ctxOf(c), (sql) => sql2(sql))));
  app.get('/db', async (c) => c.json(await withDb(db, c.env, ctxOf(c), (sql) => oneWorld(sql))));
  app.get('/queries', async (c) => {
    const n = queriesCount(c.req.query('q'));
    return c.json(await withDb(db, c.env, ctxOf(c), (sql) => worlds(sql, n)));
  });
  app.get('/updates', async (c) => {
    const n = queriesCount(c.req.query('q'));
    return c.json(await withDb(db, c.env, ctxOf(c), (sql) => updateWorlds(sql, n)));
  });
  app.get('/fortunes-db', async (c) => {
    const rows = await withDb(db, c.env, ctxOf(c), fortunes);
    return c.html(
      html`<!DOCTYPE html><html><head><title>Fortunes</title></head><body><table><tr><th>id</th><th>message</th></tr>${rows.map(
        (f) => html`<tr><td>${f.id}</td><td>${f.message}</td></tr>`,
      )}</table></body></html>`,
    );
  });
  return app;
}

/** The DB routes when DATABASE_URL is set (the runner's `db` variant). */
export function dbRoutesFromEnv<A extends Hono<any>>(app: A, get: (name: string) => string | undefined): A {
  const db = dbFromEnv(get);
  return db ? addDbRoutes(app, db) : app;
}
