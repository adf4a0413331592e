// The database scenarios: the seed benchmark's two queries and
// TechEmpower's four, on a throwaway PostgreSQL (lib/postgres.ts). They run
// in the `db` variant, the only targets started with DATABASE_URL. Without
// PostgreSQL the runner skips them (lib/db-run.ts).
import type { FrameworkId } from './config.ts';
import type { Expectation, RequestSpec, Scenario } from './scenarios.ts';

type Make = (id: string, title: string, request: RequestSpec, expect: Expectation, more: Partial<Omit<Scenario, 'id' | 'title' | 'request'>>) => Scenario;

const DB_FRAMEWORKS: readonly FrameworkId[] = ['rove', 'hono', 'raw'];

function parse(body: string): unknown {
  try {
    return JSON.parse(body);
  } catch {
    return undefined;
  }
}

const isRowId = (n: unknown) => Number.isInteger(n) && (n as number) >= 1 && (n as number) <= 10_000;

/** A World row as TechEmpower writes it: `{"id":…,"randomNumber":…}`, both 1–10,000. */
function worldError(w: unknown): string | null {
  const o = w as { id?: unknown; randomNumber?: unknown } | null;
  if (typeof o !== 'object' || o === null) return `not an object: ${JSON.stringify(w)}`;
  if (!isRowId(o.id) || !isRowId(o.randomNumber)) return `not a World row: ${JSON.stringify(w)}`;
  return null;
}

function worldsCheck(n: number, distinct = false) {
  return (body: string): string | null => {
    const v = parse(body);
    if (!Array.isArray(v)) return `expected a JSON array, got ${body.slice(0, 80)}`;
    if (v.length !== n) return `expected ${n} rows, got ${v.length}`;
    for (const w of v) {
      const e = worldError(w);
      if (e) return e;
    }
    if (distinct && new Set(v.map((w: { id: number }) => w.id)).size !== n) return 'the updated rows are not distinct';
    return null;
  };
}

function sql1Check(body: string): string | null {
  const v = parse(body) as { ts?: unknown }[] | undefined;
  if (!Array.isArray(v) || v.length !== 1 || typeof v[0]?.ts !== 'string') return `expected [{"ts":…}], got ${body.slice(0, 80)}`;
  const age = Math.abs(Date.now() - Date.parse(v[0].ts));
  return Number.isFinite(age) && age < 60_000 ? null : `ts is not the server's now(): ${v[0].ts}`;
}

function sql2Check(body: string): string | null {
  const v = parse(body) as { id?: number; full_name?: unknown; email?: unknown }[] | undefined;
  if (!Array.isArray(v) || v.length !== 10) return `expected 10 users, got ${body.slice(0, 80)}`;
  for (let i = 0; i < v.length; i++) {
    const u = v[i]!;
    if (!isRowId(u.id) || u.full_name !== `User ${u.id}` || u.email !== `user${u.id}@example.com`) return `not a seeded user: ${JSON.stringify(u)}`;
    if (i > 0 && u.id !== v[i - 1]!.id! + 1) return 'the users are not ten consecutive rows';
  }
  return null;
}

const get = (path: string): RequestSpec => ({ method: 'GET', path });
const JSON_OK = (bodyCheck: (b: string) => string | null): Expectation => ({ status: 200, contentType: 'application/json', bodyCheck });

export function dbScenarios(make: Make, fortunesCheck: (body: string) => string | null): Scenario[] {
  // Unpipelined, as TechEmpower runs its database tests: the wait is the database's, and Bun 1.4
  // drops pipelined requests queued behind a pending response (lib/known-limits.ts).
  const more = (checks: Scenario['checks'] = []) => ({ frameworks: DB_FRAMEWORKS, variant: 'db' as const, checks, pipelining: 1 });
  return [
    make('sql1', 'PostgreSQL: SELECT now()', get('/sql1'), JSON_OK(sql1Check), more()),
    make('sql2', 'PostgreSQL: 10 users at a random offset', get('/sql2'), JSON_OK(sql2Check), more()),
    make(
      'db',
      'PostgreSQL: one random World row',
      get('/db'),
      JSON_OK((b) => worldError(parse(b))),
      more(),
    ),
    make(
      'queries',
      'PostgreSQL: 20 random World rows',
      get('/queries?q=20'),
      JSON_OK(worldsCheck(20)),
      more([
        { name: 'GET /queries?q=nope (one row)', request: get('/queries?q=nope'), expect: JSON_OK(worldsCheck(1)) },
        { name: 'GET /queries?q=501 (at most 500)', request: get('/queries?q=501'), expect: JSON_OK(worldsCheck(500)) },
      ]),
    ),
    make('updates', 'PostgreSQL: 5 rows read and updated in one batch', get('/updates?q=5'), JSON_OK(worldsCheck(5, true)), more()),
    make(
      'fortunes-db',
      'PostgreSQL: fortunes from the table, rendered',
      get('/fortunes-db'),
      { status: 200, contentType: 'text/html; charset=utf-8', bodyCheck: fortunesCheck },
      more(),
    ),
  ];
}
