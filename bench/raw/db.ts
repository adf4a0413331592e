// The DB scenarios on the bare runtimes: the shared queries of bench/shared/db.ts,
// routed and answered by hand. `withDbRoutes` wraps the fetch-style handler
// (Deno.serve, Bun.serve, deno serve, workerd); `nodeDbRoutes` is node:http's.
import type { IncomingMessage, ServerResponse } from 'node:http';
import { type DbSource, fortunes, oneWorld, queriesCount, type Sql, sql1, sql2, updateWorlds, type WaitUntil, withDb, worlds } from '../shared/db.ts';
import { dbFromEnv } from '../shared/db-env.ts';
import { fortunesPage } from '../shared/html.ts';

const JSON_TYPE = 'application/json';
const HTML_TYPE = 'text/html; charset=utf-8';

type Answer = { type: string; body: string };
const json = (value: unknown): Answer => ({ type: JSON_TYPE, body: JSON.stringify(value) });

/** The work for a DB path, or undefined when the path is not one. */
function route(path: string, query: string): ((sql: Sql) => Promise<Answer>) | undefined {
  switch (path) {
    case '/sql1':
      return async (sql) => json(await sql1(sql));
    case '/sql2':
      return async (sql) => json(await sql2(sql));
    case '/db':
      return async (sql) => json(await oneWorld(sql));
    case '/queries': {
      const n = queriesCount(new URLSearchParams(query).get('q'));
      return async (sql) => json(await worlds(sql, n));
    }
    case '/updates': {
      const n = queriesCount(new URLSearchParams(query).get('q'));
      return async (sql) => json(await updateWorlds(sql, n));
    }
    case '/fortunes-db':
      return async (sql) => ({ type: HTML_TYPE, body: fortunesPage(await fortunes(sql)) });
  }
  return undefined;
}

type Handler = (req: Request, env?: unknown, ctx?: WaitUntil) => Response | Promise<Response>;

/** The fetch-style handler with the DB paths in front. */
export function withDbRoutes(handle: (req: Request) => Response | Promise<Response>, db: DbSource): Handler {
  return (req, env, ctx) => {
    if (req.method !== 'GET') return handle(req);
    const url = req.url;
    const start = url.indexOf('/', url.indexOf('//') + 2);
    const q = url.indexOf('?', start);
    const work = route(q < 0 ? url.slice(start) : url.slice(start, q), q < 0 ? '' : url.slice(q + 1));
    if (!work) return handle(req);
    return withDb(db, env, ctx, work).then((a) => new Response(a.body, { headers: { 'content-type': a.type } }));
  };
}

/** withDbRoutes when DATABASE_URL is set; the handler unchanged otherwise. */
export function dbRoutesFromEnv(handle: (req: Request) => Response | Promise<Response>, get: (name: string) => string | undefined): Handler {
  const db = dbFromEnv(get);
  return db ? withDbRoutes(handle, db) : handle;
}

/** node:http: answers a DB path and returns true, or returns false for any other request. */
export function nodeDbRoutes(get: (name: string) => string | undefined): (req: IncomingMessage, res: ServerResponse) => boolean {
  const db = dbFromEnv(get);
  if (!db) return () => false;
  return (req, res) => {
    if (req.method !== 'GET') return false;
    const url = req.url ?? '/';
    const q = url.indexOf('?');
    const work = route(q < 0 ? url : url.slice(0, q), q < 0 ? '' : url.slice(q + 1));
    if (!work) return false;
    withDb(db, undefined, undefined, work).then(
      (a) => {
        res.writeHead(200, { 'content-type': a.type, 'content-length': Buffer.byteLength(a.body) });
        res.end(a.body);
      },
      () => {
        res.writeHead(500, { 'content-type': 'text/plain; charset=utf-8' });
        res.end('Internal Server Error');
      },
    );
    return true;
  };
}
