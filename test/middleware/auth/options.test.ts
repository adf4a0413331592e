import fc from 'fast-check';
import { errors, SignJWT } from 'jose';
import { describe, expect, it } from 'vitest';
import { HttpError } from '../../../src/core/errors.ts';
import { App } from '../../../src/index.ts';
import { basicAuth, bearerAuth, jwt, jwtPayload } from '../../../src/middleware/auth/index.ts';

const SECRET = 'a-jwt-secret-that-is-long-enough-0123456789';
const encoder = new TextEncoder();
const sign = (claims: Record<string, unknown> = { sub: 'ada' }, expires = '1h') =>
  new SignJWT(claims).setProtectedHeader({ alg: 'HS256' }).setExpirationTime(expires).sign(encoder.encode(SECRET));
const basic = (user: string, pass: string) => `Basic ${btoa(`${user}:${pass}`)}`;

describe('jwt() token sources', () => {
  function jwtApp(options: { header?: string; cookie?: string }) {
    return new App().use(jwt({ secret: SECRET, ...options })).get('/', (c) => c.text(String(jwtPayload(c).sub)));
  }

  it('reads the token from a cookie when the request has no Authorization header', async () => {
    const app = jwtApp({ cookie: 'token' });
    const token = await sign();
    expect(await (await app.request('/', { headers: { cookie: `token=${token}` } })).text()).toBe('ada');
    expect((await app.request('/', { headers: { cookie: 'token=nope' } })).status).toBe(401);
    expect((await app.request('/')).status).toBe(401);
    // The header, when sent, is what counts.
    const other = await sign({ sub: 'bob' });
    expect(await (await app.request('/', { headers: { cookie: `token=${token}`, authorization: `Bearer ${other}` } })).text()).toBe('bob');
  });

  it('reads another header, with Bearer optional there', async () => {
    const app = jwtApp({ header: 'x-token' });
    const token = await sign();
    expect(await (await app.request('/', { headers: { 'x-token': token } })).text()).toBe('ada');
    expect(await (await app.request('/', { headers: { 'x-token': `Bearer ${token}` } })).text()).toBe('ada');
    expect((await app.request('/', { headers: { authorization: `Bearer ${token}` } })).status).toBe(401);
    expect((await app.request('/', { headers: { 'x-token': 'Bearer a b' } })).status).toBe(400);
  });

  it('refuses a bad header or cookie name at registration', () => {
    expect(() => jwt({ secret: SECRET, header: 'x token' })).toThrow(TypeError);
    expect(() => jwt({ secret: SECRET, cookie: 'a;b' })).toThrow(TypeError);
  });

  it("hands onError the refusal with jose's error as its cause", async () => {
    let cause: unknown;
    const app = jwtApp({});
    app.onError((error, c) => {
      cause = error instanceof HttpError ? error.cause : undefined;
      return c.text('refused', 401);
    });
    await app.request('/', { headers: { authorization: `Bearer ${await sign({ sub: 'ada' }, '-1h')}` } });
    expect(cause).toBeInstanceOf(errors.JWTExpired);
  });
});

describe('bearerAuth() options', () => {
  it('reads another header with another prefix, or a bare token', async () => {
    const prefixed = new App().use(bearerAuth({ token: 'k1', headerName: 'x-api-key', prefix: 'Token' })).get('/', (c) => c.text('in'));
    expect((await prefixed.request('/', { headers: { 'x-api-key': 'Token k1' } })).status).toBe(200);
    expect((await prefixed.request('/', { headers: { 'x-api-key': 'token k1' } })).status).toBe(200);
    expect((await prefixed.request('/', { headers: { authorization: 'Bearer k1' } })).status).toBe(401);
    const bare = new App().use(bearerAuth({ token: 'k1', headerName: 'x-api-key', prefix: '' })).get('/', (c) => c.text('in'));
    expect((await bare.request('/', { headers: { 'x-api-key': 'k1' } })).status).toBe(200);
    expect((await bare.request('/', { headers: { 'x-api-key': 'k2' } })).status).toBe(401);
    expect((await bare.request('/')).status).toBe(401);
  });

  it('refuses a bad header name or prefix at registration', () => {
    expect(() => bearerAuth({ token: 'k', headerName: 'a b' })).toThrow(TypeError);
    expect(() => bearerAuth({ token: 'k', prefix: 'Bear er' })).toThrow(TypeError);
  });

  it('words each refusal as told, with a string or a function of the context', async () => {
    const app = new App()
      .use(bearerAuth({ token: 'k1', messages: { missing: 'Log in first', malformed: (c) => `Bad header on ${c.req.path}`, invalid: () => 'Unknown key' } }))
      .get('/p', (c) => c.text('in'));
    const detail = async (headers: Record<string, string>) => {
      const res = await app.request('/p', { headers: { accept: 'application/json', ...headers } });
      return [res.status, ((await res.json()) as { detail: string }).detail];
    };
    expect(await detail({})).toEqual([401, 'Log in first']);
    expect(await detail({ authorization: 'Bearer a b' })).toEqual([400, 'Bad header on /p']);
    expect(await detail({ authorization: 'Bearer k2' })).toEqual([401, 'Unknown key']);
  });

  it('finds the token whatever the case of the prefix, and nothing else passes (property)', async () => {
    const app = new App().use(bearerAuth({ token: 'k1', prefix: 'Token' })).get('/', (c) => c.text('in'));
    await fc.assert(
      fc.asyncProperty(fc.string({ maxLength: 30 }), async (value) => {
        const header = value.replace(/[\r\n\0]/g, '');
        let res: Response;
        try {
          res = await app.request('/', { headers: { authorization: header } });
        } catch {
          return; // a value Headers refuses
        }
        expect(res.status === 200).toBe(/^token k1$/i.test(header.trim()) || /^token\s+k1\s*$/i.test(header.trim()));
      }),
      { numRuns: 200 },
    );
  });
});

describe('basicAuth() verify and onAuthSuccess', () => {
  it('lets in what an async verifier accepts, and calls onAuthSuccess with the username', async () => {
    const seen: string[] = [];
    const app = new App()
      .use(
        basicAuth({
          verify: async (user, pass, c) => user === 'ada' && pass === 'lovelace' && c.req.path === '/',
          onAuthSuccess: async (_c, user) => {
            seen.push(user);
          },
        }),
      )
      .get('/', (c) => c.text('in'));
    expect((await app.request('/', { headers: { authorization: basic('ada', 'lovelace') } })).status).toBe(200);
    expect((await app.request('/', { headers: { authorization: basic('ada', 'wrong') } })).status).toBe(401);
    expect(seen).toEqual(['ada']);
  });

  it('lets in only a true answer, not a truthy one', async () => {
    const app = new App().use(basicAuth({ verify: (() => 'yes') as never })).get('/', (c) => c.text('in'));
    expect((await app.request('/', { headers: { authorization: basic('a', 'b') } })).status).toBe(401);
  });

  it('runs onAuthSuccess with fixed credentials too', async () => {
    const app = new App()
      .use(basicAuth({ username: 'ada', password: 'pw', onAuthSuccess: (c, user) => c.set('who' as never, user as never) }))
      .get('/', (c) => c.text(String(c.get('who' as never))));
    expect(await (await app.request('/', { headers: { authorization: basic('ada', 'pw') } })).text()).toBe('ada');
  });
});
