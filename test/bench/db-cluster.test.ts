// The bench's throwaway PostgreSQL (dev/postgres.ts): seeded as the DB
// scenarios expect, and gone (files and port) after stop(). Skipped with a
// message without PostgreSQL.
import { readFileSync } from 'node:fs';
import { createConnection } from 'node:net';
import postgres from 'postgres';
import { describe, expect, it } from 'vitest';
import { seed } from '../../bench/lib/db-seed.ts';
import { FORTUNES } from '../../bench/shared/fixtures.ts';
import { postgresMissing, startCluster } from '../../dev/postgres.ts';

const missing = postgresMissing();

function portOpen(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const s = createConnection({ host: '127.0.0.1', port });
    s.once('connect', () => {
      s.destroy();
      resolve(true);
    });
    s.once('error', () => resolve(false));
  });
}

/** Alive and not a zombie (pg_ctl daemonizes the server; in a container nobody may reap it). */
function running(pid: number): boolean {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3) !== 'Z';
  } catch {
    return false;
  }
}

describe.skipIf(missing !== null)(`throwaway PostgreSQL${missing ? ` (skipped: ${missing})` : ''}`, () => {
  it('starts on a free loopback port with the seed data, and stop() removes it', async () => {
    const db = await startCluster({ seed });
    const sql = postgres(db.url, { max: 1, onnotice: () => {} });
    try {
      expect(db.url).toMatch(/^postgres:\/\/postgres@127\.0\.0\.1:\d+\/bench$/);
      const [counts] = await sql<{ users: string; world: string; fortune: string }[]>`
        select (select count(*) from users) as users, (select count(*) from world) as world, (select count(*) from fortune) as fortune`;
      expect(counts).toEqual({ users: '10000', world: '10000', fortune: String(FORTUNES.length) });
      const [fsync] = await sql<{ fsync: string }[]>`show fsync`;
      expect(fsync!.fsync).toBe('off');
      const [range] = await sql<{ lo: number; hi: number }[]>`select min(randomnumber) as lo, max(randomnumber) as hi from world`;
      expect(range!.lo).toBeGreaterThanOrEqual(1);
      expect(range!.hi).toBeLessThanOrEqual(10_000);
    } finally {
      await sql.end();
      await db.stop();
    }
    expect(await portOpen(db.port), 'port still open').toBe(false);
    expect(running(db.pid), 'postmaster still running').toBe(false);
    await db.stop(); // twice is fine
  }, 60_000);
});
