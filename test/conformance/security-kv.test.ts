// kvStore against Workers KV as workerd runs it (Miniflare's local KV), through the worker's HTTP interface.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Miniflare } from 'miniflare';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ROOT } from '../../dev/proc.ts';
import { bundleWorker } from '../../dev/workerd.ts';

let mf: Miniflare;
let scratch: string;

beforeAll(async () => {
  scratch = mkdtempSync(join(tmpdir(), 'rove-kv-'));
  bundleWorker(join(ROOT, 'test/conformance/security/kv-worker.ts'), join(scratch, 'worker.js'));
  mf = new Miniflare({
    modules: true,
    modulesRoot: scratch,
    scriptPath: join(scratch, 'worker.js'),
    compatibilityDate: '2025-01-01',
    compatibilityFlags: ['nodejs_compat'],
    kvNamespaces: ['SESSIONS'],
  });
  await mf.ready;
}, 60_000);

afterAll(async () => {
  await mf?.dispose();
  rmSync(scratch, { recursive: true, force: true });
});

const FORM = { 'content-type': 'application/x-www-form-urlencoded', origin: 'http://localhost' };
const cookieOf = (res: { headers: Headers }) =>
  res.headers
    .getSetCookie()
    .find((h) => h.startsWith('kv.sid='))
    ?.split(';')[0];

describe('kvStore on workerd (Miniflare KV)', () => {
  it('keeps the session in KV under a random id; logout deletes it, so the old cookie is worthless', async () => {
    const page = await mf.dispatchFetch('http://localhost/login');
    const cookie = cookieOf(page)!;
    const { token } = (await page.json()) as { token: string };
    const login = await mf.dispatchFetch('http://localhost/login', {
      method: 'POST',
      headers: { ...FORM, cookie },
      body: `name=ada&_csrf=${token}`,
      redirect: 'manual',
    });
    expect(login.status).toBe(303);
    const session = cookieOf(login)!;
    expect(session).not.toBe(cookie);

    // Miniflare types the namespace loosely: the two methods used here.
    const kv = (await mf.getKVNamespace('SESSIONS')) as unknown as { list(): Promise<{ keys: { name: string }[] }>; get(key: string): Promise<string | null> };
    const keys = (await kv.list()).keys.map((k) => k.name);
    // The pre-login session was deleted by regenerate(); one session remains, named by a 256-bit id.
    expect(keys).toEqual([expect.stringMatching(/^session:[A-Za-z0-9_-]{43}$/)]);
    expect(JSON.parse((await kv.get(keys[0]))!)).toMatchObject({ d: { name: 'ada' } });
    expect(session).not.toContain(keys[0].slice(8));

    const me = await mf.dispatchFetch('http://localhost/me', { headers: { cookie: session } });
    expect(me.status).toBe(200);
    expect(await me.json()).toEqual({ name: 'ada' });
    await me.arrayBuffer().catch(() => {});

    // regenerate() renewed the CSRF secret: a page after login hands out the token that logs out.
    const after = await mf.dispatchFetch('http://localhost/login', { headers: { cookie: session } });
    const fresh = (await after.json()) as { token: string };
    expect(fresh.token).not.toBe(token);
    const logout = await mf.dispatchFetch('http://localhost/logout', {
      method: 'POST',
      headers: { ...FORM, cookie: cookieOf(after) ?? session },
      body: `_csrf=${fresh.token}`,
      redirect: 'manual',
    });
    expect(logout.status).toBe(303);
    expect((await kv.list()).keys).toEqual([]);
    expect((await mf.dispatchFetch('http://localhost/me', { headers: { cookie: session } })).status).toBe(401);
  });
});
