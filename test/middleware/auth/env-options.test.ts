// jwt(), basicAuth() and bearerAuth() with their secrets from the context (c.env on Workers):
// resolved per request, imported once per distinct value, and failing closed (500) when missing.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { exportJWK, generateKeyPair, SignJWT } from 'jose';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { App } from '../../../src/index.ts';
import { basicAuth, bearerAuth, ConfigError, jwt, jwtPayload } from '../../../src/middleware/auth/index.ts';
import '../../../src/testing/index.ts';

const SECRET = 'jwt-secret-one-0123456789abcdef';
const NEXT_SECRET = 'jwt-secret-two-0123456789abcdef';
const encoder = new TextEncoder();
const b64 = (s: string) => btoa(String.fromCharCode(...encoder.encode(s)));
const now = () => Math.floor(Date.now() / 1000);

type Bindings = { JWT_SECRET?: string; JWKS?: string; ADMIN_PASSWORD?: string; API_KEY?: string; OLD_API_KEY?: string };

const hs = (secret: string, alg = 'HS256', claims: Record<string, unknown> = { sub: 'ada' }) =>
  new SignJWT(claims)
    .setProtectedHeader({ alg })
    .setExpirationTime(now() + 300)
    .sign(encoder.encode(secret));

/** An app whose /api is guarded by `guard`; onError answers 500 and keeps the error. */
function guarded(guard: Parameters<App<{ Bindings: Bindings }>['use']>[1]) {
  const app = new App<{ Bindings: Bindings }>();
  const errors: unknown[] = [];
  app.onError((error, c) => {
    errors.push(error);
    return error instanceof ConfigError ? c.text('misconfigured', 500) : c.text('failed', (error as { status?: number }).status ?? 500);
  });
  app.use('/api', guard!);
  app.get('/api/me', (c) => c.text(String((c.get as (k: string) => unknown)('jwtPayload') ? jwtPayload(c).sub : 'in')));
  return { app, errors };
}

const get = (app: App<any>, env: Bindings, authorization?: string) =>
  app.request('/api/me', authorization === undefined ? undefined : { headers: { authorization } }, env);

describe('auth > jwt secret from the context', () => {
  afterEach(() => vi.restoreAllMocks());

  it('verifies with the secret in c.env, and honours a new one at once', async () => {
    const { app } = guarded(jwt({ secret: (c) => c.env.JWT_SECRET as string }));
    const first = await hs(SECRET);
    const res = await get(app, { JWT_SECRET: SECRET }, `Bearer ${first}`);
    expect(res.status).toBe(200);
    expect(await res.text()).toBe('ada');
    // Rotated: tokens of the old secret are refused, the new secret's accepted.
    expect((await get(app, { JWT_SECRET: NEXT_SECRET }, `Bearer ${first}`)).status).toBe(401);
    expect((await get(app, { JWT_SECRET: NEXT_SECRET }, `Bearer ${await hs(NEXT_SECRET)}`)).status).toBe(200);
    expect((await get(app, { JWT_SECRET: SECRET }, `Bearer ${first}`)).status).toBe(200);
  });

  it('accepts a promise, and bytes', async () => {
    const { app } = guarded(jwt({ secret: async (c) => encoder.encode(c.env.JWT_SECRET as string) }));
    expect((await get(app, { JWT_SECRET: SECRET }, `Bearer ${await hs(SECRET)}`)).status).toBe(200);
  });

  it('imports the key once per secret and algorithm, not on every request', async () => {
    const imports = vi.spyOn(crypto.subtle, 'importKey');
    const { app } = guarded(jwt({ secret: (c) => c.env.JWT_SECRET as string, alg: ['HS256', 'HS512'] }));
    const token = await hs(SECRET);
    imports.mockClear();
    for (let i = 0; i < 5; i++) expect((await get(app, { JWT_SECRET: SECRET }, `Bearer ${token}`)).status).toBe(200);
    expect(imports).toHaveBeenCalledTimes(1);
    expect((await get(app, { JWT_SECRET: SECRET }, `Bearer ${await hs(SECRET, 'HS512')}`)).status).toBe(200);
    imports.mockClear();
    await get(app, { JWT_SECRET: NEXT_SECRET }, `Bearer ${token}`);
    expect(imports).toHaveBeenCalledTimes(1); // a new secret: imported
    imports.mockClear();
    await get(app, { JWT_SECRET: SECRET }, `Bearer ${token}`);
    expect(imports).not.toHaveBeenCalled(); // the first one is still kept
  });

  it('imports a fixed secret once too', async () => {
    const imports = vi.spyOn(crypto.subtle, 'importKey');
    const { app } = guarded(jwt({ secret: SECRET }));
    const token = await hs(SECRET);
    imports.mockClear();
    for (let i = 0; i < 3; i++) expect((await get(app, {}, `Bearer ${token}`)).status).toBe(200);
    expect(imports).toHaveBeenCalledTimes(1);
  });

  it.each([
    ['nothing', () => undefined],
    ['an unset variable', (c: { env: Bindings }) => c.env.JWT_SECRET],
    ['an empty string', () => ''],
    ['empty bytes', () => new Uint8Array(0)],
    ['a number', () => 42],
  ])('answers 500 with a logged ConfigError when it gives %s, token or not', async (_, secret) => {
    const log = vi.spyOn(console, 'error').mockImplementation(() => {});
    const { app, errors } = guarded(jwt({ secret: secret as never }));
    expect((await get(app, {})).status).toBe(500);
    expect((await get(app, {}, `Bearer ${await hs(SECRET)}`)).status).toBe(500);
    expect(errors.every((e) => e instanceof ConfigError)).toBe(true);
    expect((errors[0] as Error).message).toMatch(/^jwt\(\): secret\(c\)/);
    expect(log).toHaveBeenCalledTimes(1); // once, not once per request
  });

  it('answers 500 when the function throws', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => {});
    const { app, errors } = guarded(
      jwt({
        secret: () => {
          throw new Error(`no ${SECRET}`);
        },
      }),
    );
    expect((await get(app, {}, `Bearer ${await hs(SECRET)}`)).status).toBe(500);
    expect((errors[0] as Error).message).not.toContain(SECRET);
  });
});

describe('auth > jwt key set from the context', () => {
  let server: Server;
  let url: string;
  let pair: Awaited<ReturnType<typeof generateKeyPair>>;
  let other: Awaited<ReturnType<typeof generateKeyPair>>;
  let jwksText: string;
  const es = (key: CryptoKey, kid: string) =>
    new SignJWT({ sub: 'grace' })
      .setProtectedHeader({ alg: 'ES256', kid })
      .setExpirationTime(now() + 300)
      .sign(key);

  beforeAll(async () => {
    pair = await generateKeyPair('ES256');
    other = await generateKeyPair('ES256');
    jwksText = JSON.stringify({ keys: [{ ...(await exportJWK(pair.publicKey)), kid: 'one', alg: 'ES256' }] });
    server = createServer((_req, res) => res.writeHead(200, { 'content-type': 'application/json' }).end(jwksText));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/jwks.json`;
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));
  afterEach(() => vi.restoreAllMocks());

  it('takes a key set as JSON text from c.env', async () => {
    const { app } = guarded(jwt({ jwks: (c) => c.env.JWKS as string, alg: 'ES256' }));
    expect((await get(app, { JWKS: jwksText }, `Bearer ${await es(pair.privateKey, 'one')}`)).status).toBe(200);
    expect((await get(app, { JWKS: jwksText }, `Bearer ${await es(other.privateKey, 'one')}`)).status).toBe(401);
    const otherSet = JSON.stringify({ keys: [{ ...(await exportJWK(other.publicKey)), kid: 'one', alg: 'ES256' }] });
    expect((await get(app, { JWKS: otherSet }, `Bearer ${await es(other.privateKey, 'one')}`)).status).toBe(200);
  });

  it('takes a key set URL from c.env (fetched by jose)', async () => {
    const { app } = guarded(jwt({ jwks: (c) => c.env.JWKS as string, alg: 'ES256' }));
    const res = await get(app, { JWKS: url }, `Bearer ${await es(pair.privateKey, 'one')}`);
    expect(res.status).toBe(200);
    expect(await res.text()).toBe('grace');
  });

  it('takes a fixed key set URL or document, checked at registration', async () => {
    const { app } = guarded(jwt({ jwks: url, alg: 'ES256' }));
    expect((await get(app, {}, `Bearer ${await es(pair.privateKey, 'one')}`)).status).toBe(200);
    const local = guarded(jwt({ jwks: JSON.parse(jwksText), alg: 'ES256' })).app;
    expect((await get(local, {}, `Bearer ${await es(pair.privateKey, 'one')}`)).status).toBe(200);
    expect(() => jwt({ jwks: 'not a url', alg: 'ES256' })).toThrow(TypeError);
    expect(() => jwt({ jwks: 'ftp://id.example/jwks', alg: 'ES256' })).toThrow(TypeError);
    expect(() => jwt({ jwks: { keys: [] }, alg: 'ES256' })).toThrow(TypeError);
    expect(() => jwt({ jwks: url })).toThrow(/name the algorithms/);
    expect(() => jwt({ jwks: url, secret: SECRET } as never)).toThrow(/one of/);
  });

  it('answers 500 for a key set from the context that is not one', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => {});
    const { app, errors } = guarded(jwt({ jwks: (c) => c.env.JWKS as string, alg: 'ES256' }));
    for (const JWKS of ['{not json', 'no url', '{"keys":[]}']) {
      expect((await get(app, { JWKS }, `Bearer ${await es(pair.privateKey, 'one')}`)).status).toBe(500);
    }
    expect(errors).toHaveLength(3);
    expect(errors.every((e) => e instanceof ConfigError)).toBe(true);
  });
});

describe('auth > basicAuth password from the context', () => {
  afterEach(() => vi.restoreAllMocks());
  const basic = (user: string, pass: string) => `Basic ${b64(`${user}:${pass}`)}`;

  it('checks against c.env, and honours a new password at once', async () => {
    const { app } = guarded(basicAuth({ username: 'admin', password: (c) => c.env.ADMIN_PASSWORD as string }));
    expect((await get(app, { ADMIN_PASSWORD: 'first' }, basic('admin', 'first'))).status).toBe(200);
    expect((await get(app, { ADMIN_PASSWORD: 'first' }, basic('admin', 'wrong'))).status).toBe(401);
    expect((await get(app, { ADMIN_PASSWORD: 'second' }, basic('admin', 'first'))).status).toBe(401);
    expect((await get(app, { ADMIN_PASSWORD: 'second' }, basic('admin', 'second'))).status).toBe(200);
  });

  it('takes the username from a function too', async () => {
    const { app } = guarded(basicAuth({ username: async () => 'root', password: 'pw' }));
    expect((await get(app, {}, basic('root', 'pw'))).status).toBe(200);
    expect((await get(app, {}, basic('admin', 'pw'))).status).toBe(401);
  });

  it('answers 500 when no password comes, even to a request without credentials', async () => {
    const log = vi.spyOn(console, 'error').mockImplementation(() => {});
    const { app, errors } = guarded(basicAuth({ username: 'admin', password: (c) => c.env.ADMIN_PASSWORD as string }));
    expect((await get(app, {})).status).toBe(500);
    expect((await get(app, {}, basic('admin', ''))).status).toBe(500);
    expect((await get(app, { ADMIN_PASSWORD: '' }, basic('admin', ''))).status).toBe(500);
    expect(errors.every((e) => e instanceof ConfigError)).toBe(true);
    expect(log).toHaveBeenCalled();
  });

  it('answers 500 for a username with ":" from a function', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => {});
    const { app } = guarded(basicAuth({ username: () => 'a:b', password: 'pw' }));
    expect((await get(app, {}, basic('a', 'b:pw'))).status).toBe(500);
  });
});

describe('auth > bearerAuth tokens from the context', () => {
  afterEach(() => vi.restoreAllMocks());

  it('lets in the tokens c.env names, through a rotation', async () => {
    const { app } = guarded(bearerAuth({ token: (c) => [c.env.API_KEY, c.env.OLD_API_KEY].filter((t) => t !== undefined) }));
    expect((await get(app, { API_KEY: 'key-1' }, 'Bearer key-1')).status).toBe(200);
    expect((await get(app, { API_KEY: 'key-2', OLD_API_KEY: 'key-1' }, 'Bearer key-1')).status).toBe(200);
    expect((await get(app, { API_KEY: 'key-2', OLD_API_KEY: 'key-1' }, 'Bearer key-2')).status).toBe(200);
    expect((await get(app, { API_KEY: 'key-2' }, 'Bearer key-1')).status).toBe(401);
  });

  it.each([
    ['nothing', () => undefined],
    ['an empty list', () => []],
    ['an unset variable', (c: { env: Bindings }) => c.env.API_KEY],
    ['a value that is not a token', () => 'has space'],
  ])('answers 500 when it gives %s', async (_, token) => {
    vi.spyOn(console, 'error').mockImplementation(() => {});
    const { app, errors } = guarded(bearerAuth({ token: token as never }));
    expect((await get(app, {})).status).toBe(500);
    expect((await get(app, {}, 'Bearer anything')).status).toBe(500);
    expect(errors.every((e) => e instanceof ConfigError)).toBe(true);
  });
});

describe('auth > typing', () => {
  it('types c.env with the app Bindings', () => {
    const app = new App<{ Bindings: { JWT_SECRET: string; PORT: number } }>();
    app.use(jwt({ secret: (c) => c.env.JWT_SECRET }));
    // @ts-expect-error: PORT is a number, not a secret
    app.use(jwt({ secret: (c) => c.env.PORT }));
    // @ts-expect-error: no such binding
    app.use(basicAuth({ username: 'a', password: (c) => c.env.MISSING }));
    expect(app).toBeDefined();
  });
});
