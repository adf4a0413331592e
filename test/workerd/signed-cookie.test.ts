/// <reference types="@cloudflare/vitest-pool-workers" />
// Runs inside workerd (vitest.workers.config.ts): signed cookies with the secret from a binding,
// signed and verified per request through crypto.subtle (Workers refuse crypto at module scope).
import { env } from 'cloudflare:test';
import { describe, expect, it } from 'vitest';
import { getSignedCookie, setSignedCookie } from '../../src/http/cookie.ts';
import { App } from '../../src/index.ts';

type Bindings = { SESSION_SECRET: string };

const app = new App<{ Bindings: Bindings }>()
  .get('/set', async (c) => {
    await setSignedCookie(c, 'uid', '42', [c.env.SESSION_SECRET], { prefix: 'host', httpOnly: true });
    return c.text('set');
  })
  .get('/get', async (c) => c.json({ uid: (await getSignedCookie(c, '__Host-uid', [c.env.SESSION_SECRET])) ?? null }));

describe('signed cookies inside workerd', () => {
  it('signs with the binding, verifies it back, and refuses a tampered value', async () => {
    const set = await app.request('/set', undefined, env);
    const line = set.headers.get('set-cookie') ?? '';
    expect(line).toMatch(/^__Host-uid=42\..+; Path=\/; HttpOnly; Secure$/);
    const cookie = line.split(';')[0];
    expect(await (await app.request('/get', { headers: { cookie } }, env)).json()).toEqual({ uid: '42' });
    const tampered = cookie.replace('uid=42', 'uid=7');
    expect(await (await app.request('/get', { headers: { cookie: tampered } }, env)).json()).toEqual({ uid: false });
  });
});
