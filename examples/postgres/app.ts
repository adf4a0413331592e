// A small notes API on PostgreSQL, the same on every runtime. The entries
// beside this file differ only in where the connection comes from (db.ts).
import { App, HttpError } from 'rove';
import type { Sql, Vars } from './db.ts';

export interface Note {
  id: number;
  body: string;
  created_at: Date;
}

const MAX_BODY = 280;

// The table is created once per process or isolate, on first use.
let schema: Promise<unknown> | undefined;
function ready(sql: Sql): Promise<unknown> {
  schema ??= sql`create table if not exists notes (id serial primary key, body text not null, created_at timestamptz not null default now())`.catch((error) => {
    schema = undefined; // try again on the next request
    throw error;
  });
  return schema;
}

/** The routes; `connect` installs the connection middleware (db.ts) first. */
export function createApp(connect: (app: App<Vars>) => unknown): App<Vars> {
  const app = new App<Vars>();
  connect(app);

  app.get('/health', async (c) => {
    const [row] = await c.get('sql')`select now() as now`;
    return c.json({ ok: true, now: row!.now });
  });

  app.get('/notes', async (c) => {
    const sql = c.get('sql');
    await ready(sql);
    return c.json(await sql<Note[]>`select id, body, created_at from notes order by id desc limit 20`);
  });

  app.get('/notes/:id', async (c) => {
    const id = c.req.param('id') ?? '';
    // Only a positive int4 can be an id; anything else is simply not found (never a 500).
    if (!/^[1-9]\d{0,9}$/.test(id) || Number(id) > 2_147_483_647) throw new HttpError(404, `no note ${id}`);
    const sql = c.get('sql');
    await ready(sql);
    const [note] = await sql<Note[]>`select id, body, created_at from notes where id = ${Number(id)}`;
    if (!note) throw new HttpError(404, `no note ${id}`);
    return c.json(note);
  });

  app.post('/notes', async (c) => {
    const input = (await c.req.json()) as { body?: unknown } | null;
    const body = input && typeof input === 'object' ? input.body : undefined;
    if (typeof body !== 'string' || body.trim() === '' || body.length > MAX_BODY) {
      throw new HttpError(400, `body must be a non-empty string of at most ${MAX_BODY} characters`);
    }
    const sql = c.get('sql');
    await ready(sql);
    // Parameters, never string concatenation: postgres.js sends `body` apart from the SQL text.
    const [note] = await sql<Note[]>`insert into notes (body) values (${body}) returning id, body, created_at`;
    return c.json(note, 201);
  });

  return app;
}
