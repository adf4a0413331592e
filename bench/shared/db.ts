// The database work of the bench's DB scenarios, shared by the rove, hono and
// raw apps so every target runs exactly the same queries with the same driver
// (postgres.js). Only the HTTP side differs between them.
//
// Where the connection comes from is a `DbSource`:
// - Node, Deno, Bun, Deno Deploy: one pool per process, from DATABASE_URL (`poolSource`).
// - workerd: a socket belongs to the request that opened it (Workers refuse I/O on
//   another request's socket), so a pool per isolate cannot work; each request opens
//   its own connection and closes it after the response (`perRequestSource`).
import postgres from 'postgres';
import { EXTRA_FORTUNE_MESSAGE, type Fortune } from './fixtures.ts';

export type Sql = postgres.Sql;

export interface World {
  id: number;
  randomNumber: number;
}

/** `c.executionCtx` / the Workers ctx: background work after the response. */
export interface WaitUntil {
  waitUntil(promise: Promise<unknown>): void;
}

export interface DbSource {
  /** A connection (pool) for one request; `release` when the response is built. */
  lease(env?: unknown): Sql;
  release(sql: Sql, ctx?: WaitUntil | (() => WaitUntil | undefined)): void;
}

/** postgres.js settings for the bench: no notices, no type fetch round trip on connect. */
function options(max: number): postgres.Options<Record<string, never>> {
  return { max, onnotice: () => {}, fetch_types: false, idle_timeout: 0 };
}

/** One pool per process (or isolate), opened on first use. */
export function poolSource(url: string, max = 10): DbSource & { close(): Promise<void> } {
  let pool: Sql | undefined;
  return {
    lease: () => (pool ??= postgres(url, options(max))),
    release: () => {},
    close: () => (pool ? pool.end({ timeout: 5 }) : Promise.resolve()),
  };
}

/** One connection per request, closed after the response (Workers). The URL is read from the bindings. */
export function perRequestSource(binding = 'DATABASE_URL'): DbSource {
  return {
    lease(env) {
      const url = (env as Record<string, unknown> | undefined)?.[binding];
      if (typeof url !== 'string' || url === '') throw new Error(`the ${binding} binding is not set`);
      return postgres(url, options(1));
    },
    release(sql, ctx) {
      const ending = sql.end({ timeout: 5 });
      const wait = typeof ctx === 'function' ? ctx() : ctx;
      if (wait) wait.waitUntil(ending);
    },
  };
}

/**
 * Runs `fn` with a leased connection and releases it, also on error. `ctx` may be
 * a function, for frameworks whose execution context throws outside Workers.
 */
export async function withDb<T>(
  source: DbSource,
  env: unknown,
  ctx: WaitUntil | (() => WaitUntil | undefined) | undefined,
  fn: (sql: Sql) => Promise<T>,
): Promise<T> {
  const sql = source.lease(env);
  try {
    return await fn(sql);
  } finally {
    source.release(sql, ctx);
  }
}

const ROWS = 10_000;
export const randomId = (): number => 1 + Math.floor(Math.random() * ROWS);
/** sql2's offset, 0–9,990 as in the seed benchmark. */
export const randomOffset = (): number => Math.floor(Math.random() * (ROWS - 10 + 1));

/** TechEmpower's rule for `?q=`: missing or not a number → 1; clamped to 1–500. */
export function queriesCount(raw: string | null | undefined): number {
  const n = Number.parseInt(raw ?? '', 10);
  if (!Number.isFinite(n) || n < 1) return 1;
  return Math.min(n, 500);
}

/** /sql1: the seed's `SELECT now()`. */
export function sql1(sql: Sql): Promise<{ ts: Date }[]> {
  return sql<{ ts: Date }[]>`select now() as ts`.then((rows) => [...rows]);
}

/** /sql2: ten users at a random offset. */
export function sql2(sql: Sql, offset = randomOffset()): Promise<{ id: number; full_name: string; email: string }[]> {
  return sql<{ id: number; full_name: string; email: string }[]>`select id, full_name, email from users order by id limit 10 offset ${offset}`.then((rows) => [
    ...rows,
  ]);
}

/** /db: one random World row. */
export async function oneWorld(sql: Sql, id = randomId()): Promise<World> {
  const [row] = await sql<{ id: number; randomnumber: number }[]>`select id, randomnumber from world where id = ${id}`;
  if (!row) throw new Error(`world ${id} not found`);
  return { id: row.id, randomNumber: row.randomnumber };
}

/** /queries?q=N: N random rows, one query each (as TechEmpower requires), sent together. */
export function worlds(sql: Sql, n: number): Promise<World[]> {
  return Promise.all(Array.from({ length: n }, () => oneWorld(sql)));
}

/** /updates?q=N: N distinct random rows read, given new numbers, and written back in one statement. */
export async function updateWorlds(sql: Sql, n: number): Promise<World[]> {
  const ids = new Set<number>();
  while (ids.size < n) ids.add(randomId());
  // Sorted ids: concurrent batches lock rows in the same order, so they cannot deadlock.
  const rows = await Promise.all([...ids].sort((a, b) => a - b).map((id) => oneWorld(sql, id)));
  for (const w of rows) w.randomNumber = randomId();
  await sql`update world set randomnumber = v.r::int from (values ${sql(rows.map((w) => [w.id, w.randomNumber]))}) as v (id, r) where world.id = v.id::int`;
  return rows;
}

/** /fortunes-db: the stored fortunes plus one added at request time, sorted by message. */
export async function fortunes(sql: Sql): Promise<Fortune[]> {
  const rows: Fortune[] = [...(await sql<Fortune[]>`select id, message from fortune`)].map((r) => ({ id: r.id, message: r.message }));
  rows.push({ id: 0, message: EXTRA_FORTUNE_MESSAGE });
  rows.sort((a, b) => (a.message < b.message ? -1 : a.message > b.message ? 1 : 0));
  return rows;
}
