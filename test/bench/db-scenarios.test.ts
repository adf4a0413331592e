// The DB scenarios' response checks: right answers pass, wrong ones are named.
import { describe, expect, it } from 'vitest';
import { checkResponse, scenarioById } from '../../bench/lib/scenarios.ts';
import { queriesCount } from '../../bench/shared/db.ts';
import { fortunesForRequest } from '../../bench/shared/fixtures.ts';
import { fortunesPage } from '../../bench/shared/html.ts';

const ok = (body: string, type = 'application/json') => ({ status: 200, headers: { 'content-type': type }, body });
const check = (id: string, body: string, type?: string) => checkResponse(scenarioById(id).checks[0]!.expect, ok(body, type));
const worlds = (n: number, id = (i: number) => i + 1) => JSON.stringify(Array.from({ length: n }, (_, i) => ({ id: id(i), randomNumber: 5000 })));

describe('DB scenarios', () => {
  it('run rove, hono and raw in the db variant, unpipelined', () => {
    for (const id of ['sql1', 'sql2', 'db', 'queries', 'updates', 'fortunes-db']) {
      const s = scenarioById(id);
      expect(s.variant, id).toBe('db');
      expect(s.frameworks, id).toEqual(['rove', 'hono', 'raw']);
      expect(s.pipelining, id).toBe(1);
    }
  });

  it('check sql1 and sql2', () => {
    expect(check('sql1', JSON.stringify([{ ts: new Date().toISOString() }]))).toBeNull();
    expect(check('sql1', JSON.stringify([{ ts: '2001-01-01T00:00:00Z' }]))).toMatch(/now/);
    const users = (from: number) =>
      JSON.stringify(Array.from({ length: 10 }, (_, i) => ({ id: from + i, full_name: `User ${from + i}`, email: `user${from + i}@example.com` })));
    expect(check('sql2', users(42))).toBeNull();
    expect(check('sql2', users(42).replace('User 43', 'User 44'))).toMatch(/seeded user/);
    expect(check('sql2', '[]')).toMatch(/10 users/);
  });

  it('check World rows, counts and distinct updates', () => {
    expect(check('db', '{"id":1,"randomNumber":10000}')).toBeNull();
    expect(check('db', '{"id":0,"randomNumber":1}')).toMatch(/World row/);
    expect(check('db', '{"id":1,"randomnumber":1}')).toMatch(/World row/);
    expect(check('queries', worlds(20))).toBeNull();
    expect(check('queries', worlds(19))).toMatch(/expected 20 rows/);
    expect(check('updates', worlds(5))).toBeNull();
    expect(
      check(
        'updates',
        worlds(5, () => 7),
      ),
    ).toMatch(/distinct/);
  });

  it('check the fortunes page from the table like the fixed one', () => {
    expect(check('fortunes-db', fortunesPage(fortunesForRequest()), 'text/html; charset=utf-8')).toBeNull();
    expect(check('fortunes-db', '<script>', 'text/html; charset=utf-8')).toMatch(/not escaped/);
  });

  it('reads ?q= as TechEmpower does', () => {
    expect([undefined, null, '', 'x', '0', '-4', '1', '20', '500', '501', '1e9'].map(queriesCount)).toEqual([1, 1, 1, 1, 1, 1, 1, 20, 500, 500, 1]);
  });
});
