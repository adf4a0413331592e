// examples/postgres over real HTTP on every runtime, against a throwaway
// PostgreSQL (dev/postgres.ts). Without PostgreSQL on the machine the
// suite is skipped, and says so; scripts/install-postgres.sh installs it.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Cluster, postgresMissing, startCluster } from '../../dev/postgres.ts';
import { RUNTIMES, type Running, start } from '../conformance/servers.ts';

const missing = postgresMissing();
if (missing) console.warn(`test/postgres skipped: ${missing}`);

describe.skipIf(missing !== null)(`examples/postgres${missing ? ` (skipped: ${missing})` : ''}`, () => {
  let db: Cluster;
  beforeAll(async () => {
    db = await startCluster();
  }, 60_000);
  afterAll(async () => {
    await db?.stop();
  });

  describe.each(RUNTIMES)('on %s', (runtime) => {
    let server: Running;
    beforeAll(async () => {
      server = await start(runtime, 'examples/postgres', '/health', { DATABASE_URL: db.url, DB_POOL: '4' }, { DATABASE_URL: db.url });
    }, 60_000);
    afterAll(async () => {
      await server?.stop();
    });

    const post = (body: string) => fetch(`${server.url}/notes`, { method: 'POST', headers: { 'content-type': 'application/json' }, body });

    it('answers /health from the database', async () => {
      const res = await fetch(`${server.url}/health`);
      expect(res.status).toBe(200);
      const body = (await res.json()) as { ok: boolean; now: string };
      expect(body.ok).toBe(true);
      expect(Math.abs(Date.parse(body.now) - Date.now())).toBeLessThan(60_000);
    });

    it('stores a note and reads it back, by id and in the list', async () => {
      const text = `from ${runtime}: '); drop table notes; -- <b>`;
      const created = await post(JSON.stringify({ body: text }));
      expect(created.status).toBe(201);
      const note = (await created.json()) as { id: number; body: string };
      expect(note.body).toBe(text); // stored as data, not run as SQL
      const one = await fetch(`${server.url}/notes/${note.id}`);
      expect(one.status).toBe(200);
      expect(((await one.json()) as { body: string }).body).toBe(text);
      const list = (await (await fetch(`${server.url}/notes`)).json()) as { id: number }[];
      expect(list.map((n) => n.id)).toContain(note.id);
    });

    it('answers 404 for ids that cannot exist, never a 500', async () => {
      for (const id of ['abc', '0', '-1', '1.5', '99999999999', '2147483648', '1%20or%201=1', '%00']) {
        const res = await fetch(`${server.url}/notes/${id}`);
        expect(res.status, id).toBe(404);
        expect(res.headers.get('content-type'), id).toBe('application/problem+json');
        await res.arrayBuffer();
      }
    });

    it('refuses a bad note with a 400 problem', async () => {
      for (const body of [
        '{',
        '{}',
        '{"body":""}',
        '{"body":"   "}',
        '{"body":42}',
        `{"body":"${'x'.repeat(281)}"}`,
        '{"__proto__":{"body":"x"}}',
        'null',
        '[]',
      ]) {
        const res = await post(body);
        expect(res.status, body).toBe(400);
        expect(res.headers.get('content-type'), body).toBe('application/problem+json');
        await res.arrayBuffer();
      }
    });

    it.runIf(runtime === 'node' || runtime === 'deno' || runtime === 'bun')('shuts down on SIGTERM with its pool, exit code 0', async () => {
      process.kill(server.child.pid, 'SIGTERM');
      await Promise.race([server.child.done, new Promise((r) => setTimeout(r, 10_000))]);
      expect(server.child.exited).toBe(true);
      expect(server.child.exitCode, server.child.output()).toBe(0);
    });
  });
});
