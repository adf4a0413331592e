/// <reference types="@cloudflare/vitest-pool-workers" />
// Runs inside workerd (vitest.workers.config.ts): session keys and a JWT secret read from the
// Worker's bindings per request, `keys: (c) => [c.env.SESSION_SECRET]`, with the app built once
// at module scope (where Workers have no env and refuse crypto work).
import { env } from 'cloudflare:test';
import { SignJWT } from 'jose';
import { describe, expect, it } from 'vitest';
import { App } from '../../src/index.ts';
import { jwt, jwtPayload } from '../../src/middleware/auth/index.ts';
import { getSession, session } from '../../src/middleware/session/index.ts';
import '../../src/testing/index.ts';

declare module 'cloudflare:test' {
  interface ProvidedEnv {
    SESSION_SECRET: string;
    JWT_SECRET: string;
  }
}

type Bindings = { SESSION_SECRET: string; JWT_SECRET: string };

const app = new App<{ Bindings: Bindings }>();
app.use('/visits', session({ keys: (c) => [c.env.SESSION_SECRET] }));
app.get('/visits', async (c) => {
  const n = ((await getSession(c).get<number>('n')) ?? 0) + 1;
  await getSession(c).set('n', n);
  return c.json({ n });
});
app.use('/api', jwt({ secret: (c) => c.env.JWT_SECRET }));
app.get('/api/me', (c) => c.json({ sub: jwtPayload(c).sub }));
app.onError((error, c) => c.json({ error: (error as Error).name }, (error as { status?: number }).status ?? 500));

const sign = (secret: string) =>
  new SignJWT({ sub: 'ada' })
    .setProtectedHeader({ alg: 'HS256' })
    .setExpirationTime(Math.floor(Date.now() / 1000) + 300)
    .sign(new TextEncoder().encode(secret));

describe('configuration from the Worker env, inside workerd', () => {
  it('seals and opens sessions with the SESSION_SECRET binding', async () => {
    const first = await app.request('/visits', undefined, env);
    expect(await first.json()).toEqual({ n: 1 });
    const cookie = first.headers.get('set-cookie')!.split(';')[0];
    const second = await app.request('/visits', { headers: { cookie } }, env);
    expect(await second.json()).toEqual({ n: 2 });
    // Another secret does not open it: a fresh session.
    const other = { ...env, SESSION_SECRET: 'another-session-secret-0123456789abcdef' };
    expect(await (await app.request('/visits', { headers: { cookie } }, other)).json()).toEqual({ n: 1 });
  });

  it('verifies Bearer JWTs with the JWT_SECRET binding', async () => {
    const ok = await app.request('/api/me', { headers: { authorization: `Bearer ${await sign(env.JWT_SECRET)}` } }, env);
    expect(ok.status).toBe(200);
    expect(await ok.json()).toEqual({ sub: 'ada' });
    const forged = await app.request('/api/me', { headers: { authorization: `Bearer ${await sign('not-the-secret-0123456789abcdef')}` } }, env);
    expect(forged.status).toBe(401);
  });

  it('fails closed (500 ConfigError) when a binding is missing', async () => {
    // As if `wrangler secret put` was never run: the bindings are absent.
    const missing = { ...env, SESSION_SECRET: undefined, JWT_SECRET: undefined } as unknown as Bindings;
    const visits = await app.request('/visits', undefined, missing);
    expect(visits.status).toBe(500);
    expect(await visits.json()).toEqual({ error: 'ConfigError' });
    const me = await app.request('/api/me', { headers: { authorization: `Bearer ${await sign(env.JWT_SECRET)}` } }, missing);
    expect(me.status).toBe(500);
  });
});
