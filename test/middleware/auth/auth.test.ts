import fc from 'fast-check';
import { createLocalJWKSet, exportJWK, generateKeyPair, SignJWT } from 'jose';
import { describe, expect, it } from 'vitest';
import { toBase64Url } from '../../../src/http/base64url.ts';
import { App } from '../../../src/index.ts';
import { basicAuth, bearerAuth, jwt, jwtPayload } from '../../../src/middleware/auth/index.ts';

const SECRET = 'dev-jwt-secret';
const encoder = new TextEncoder();
const b64 = (s: string) => btoa(String.fromCharCode(...encoder.encode(s)));

function call(app: App, path: string, authorization?: string, accept?: string) {
  const headers: Record<string, string> = {};
  if (authorization !== undefined) headers.authorization = authorization;
  if (accept !== undefined) headers.accept = accept;
  return app.fetch(new Request(`http://localhost${path}`, { headers }));
}

describe('auth > basicAuth', () => {
  const app = new App();
  app.use('/admin', basicAuth({ username: 'admin', password: 'secret', realm: 'Admin area' }));
  app.get('/admin', (c) => c.text(`hello ${c.get('basicAuthUser')}`));
  app.get('/public', (c) => c.text('public'));

  it('asks for credentials with 401 and a Basic challenge', async () => {
    const res = await call(app, '/admin');
    expect(res.status).toBe(401);
    expect(res.headers.get('www-authenticate')).toBe('Basic realm="Admin area", charset="UTF-8"');
    expect(res.headers.get('content-type')).toBe('application/problem+json');
    const html = await call(app, '/admin', undefined, 'text/html');
    expect(html.headers.get('www-authenticate')).toMatch(/^Basic realm=/);
  });

  it('lets the right username and password in', async () => {
    const res = await call(app, '/admin', `Basic ${b64('admin:secret')}`);
    expect(res.status).toBe(200);
    expect(await res.text()).toBe('hello admin');
    expect((await call(app, '/admin', `basic ${b64('admin:secret')}`)).status).toBe(200);
  });

  it('refuses a wrong password, a wrong user, and malformed credentials', async () => {
    for (const header of [
      `Basic ${b64('admin:wrong')}`,
      `Basic ${b64('root:secret')}`,
      `Basic ${b64('admin:secret ')}`,
      `Basic ${b64('adminsecret')}`,
      'Basic !!!',
      'Basic',
      `Bearer ${b64('admin:secret')}`,
      `Basic ${b64('admin:sec\nret')}`,
      `Basic ${'A'.repeat(10_000)}`,
      `Basic ${btoa('admin:\xff\xfe')}`,
    ]) {
      const res = await call(app, '/admin', header);
      expect(res.status, header.slice(0, 40)).toBe(401);
      expect(res.headers.get('www-authenticate')).toMatch(/^Basic /);
    }
  });

  it('never answers 500 whatever the header (property)', async () => {
    await fc.assert(
      fc.asyncProperty(fc.string({ maxLength: 80 }), async (s) => {
        let res: Response;
        try {
          res = await call(app, '/admin', `Basic ${s}`);
        } catch {
          return; // not a valid header value
        }
        expect(res.status).toBe(401);
      }),
      { numRuns: 150 },
    );
  });

  it('supports UTF-8 credentials and a verify function', async () => {
    const v = new App();
    v.use(basicAuth({ verify: (u, p) => u === 'zoë' && p === 'pässword' }));
    v.get('/', (c) => c.text('ok'));
    expect((await call(v, '/', `Basic ${b64('zoë:pässword')}`)).status).toBe(200);
    expect((await call(v, '/', `Basic ${b64('zoe:pässword')}`)).status).toBe(401);
  });

  it('leaves other paths alone', async () => {
    expect((await call(app, '/public')).status).toBe(200);
  });

  it('refuses bad options when registered', () => {
    expect(() => basicAuth({ username: 'a', password: '' })).toThrow(/password/);
    expect(() => basicAuth({ username: 'a:b', password: 'x' })).toThrow(/":"/);
    expect(() => basicAuth({ username: 'a', password: 'x', realm: 'x"\r\nSet-Cookie: a=b' })).toThrow(/realm/);
    expect(() => basicAuth({} as never)).toThrow(/needs/);
  });

  it('emits auth:failed without credentials', async () => {
    const seen: unknown[] = [];
    app.on('auth:failed', (e) => void seen.push(e.metadata));
    await call(app, '/admin', `Basic ${b64('admin:wrong')}`);
    expect(seen).toEqual([{ scheme: 'basic', reason: 'invalid', method: 'GET', path: '/admin' }]);
  });
});

describe('auth > bearerAuth', () => {
  const app = new App();
  app.use(bearerAuth({ token: ['key-one', 'key-two'] }));
  app.get('/', (c) => c.text('ok'));

  it('accepts any listed token; refuses others with the Bearer challenge', async () => {
    expect((await call(app, '/', 'Bearer key-one')).status).toBe(200);
    expect((await call(app, '/', 'bearer key-two')).status).toBe(200);
    const none = await call(app, '/');
    expect(none.status).toBe(401);
    expect(none.headers.get('www-authenticate')).toBe('Bearer realm="api"');
    const wrong = await call(app, '/', 'Bearer key-three');
    expect(wrong.headers.get('www-authenticate')).toBe('Bearer realm="api", error="invalid_token"');
    // A header that is not `Bearer <b64token>` is a bad request (RFC 6750 §3.1), not a bad token.
    const bad = await call(app, '/', 'Bearer a b');
    expect(bad.status).toBe(400);
    expect(bad.headers.get('www-authenticate')).toBe('Bearer realm="api", error="invalid_request"');
  });
});

describe('auth > jwt', () => {
  const app = new App();
  app.use('/api', jwt({ secret: SECRET }));
  app.get('/api/me', (c) => c.json({ sub: jwtPayload(c).sub, raw: c.get('jwtPayload') }));

  const sign = (claims: Record<string, unknown>, options: { secret?: string; alg?: string; exp?: string | number | null } = {}) => {
    const s = new SignJWT(claims).setProtectedHeader({ alg: options.alg ?? 'HS256' }).setIssuedAt();
    if (options.exp !== null) s.setExpirationTime(options.exp ?? '1h');
    return s.sign(encoder.encode(options.secret ?? SECRET));
  };

  const expectInvalid = async (authorization: string, description: RegExp) => {
    const res = await call(app, '/api/me', authorization);
    expect(res.status).toBe(401);
    const challenge = res.headers.get('www-authenticate')!;
    expect(challenge).toMatch(/^Bearer realm="api", error="invalid_(token|request)", error_description="/);
    expect(challenge).toMatch(description);
    return res;
  };

  it('lets a valid HS256 token in and exposes its claims', async () => {
    const res = await call(app, '/api/me', `Bearer ${await sign({ sub: 'ada' })}`);
    expect(res.status).toBe(200);
    const body = (await res.json()) as { sub: string; raw: { sub: string; exp: number } };
    expect(body.sub).toBe('ada');
    expect(body.raw.exp).toBeGreaterThan(Date.now() / 1000);
  });

  it('refuses a missing token with a bare challenge', async () => {
    const res = await call(app, '/api/me');
    expect(res.status).toBe(401);
    expect(res.headers.get('www-authenticate')).toBe('Bearer realm="api"');
  });

  it('refuses expired and not-yet-valid tokens', async () => {
    await expectInvalid(`Bearer ${await sign({ sub: 'ada' }, { exp: Math.floor(Date.now() / 1000) - 10 })}`, /expired/);
    const future = await new SignJWT({ sub: 'ada' })
      .setProtectedHeader({ alg: 'HS256' })
      .setNotBefore('1h')
      .setExpirationTime('2h')
      .sign(encoder.encode(SECRET));
    await expectInvalid(`Bearer ${future}`, /nbf claim/);
  });

  it('lets a token in exactly while it is valid, with clockTolerance as leeway (property)', async () => {
    const tolerant = new App();
    tolerant.use(jwt({ secret: SECRET, clockTolerance: 30 }));
    tolerant.get('/', (c) => c.text('ok'));
    await fc.assert(
      fc.asyncProperty(
        fc.integer({ min: -3600, max: 3600 }).filter((d) => Math.abs(d) > 2 && Math.abs(d + 30) > 2),
        async (offset) => {
          const now = Math.floor(Date.now() / 1000);
          const token = await sign({ sub: 'ada' }, { exp: now + offset });
          expect((await call(app, '/api/me', `Bearer ${token}`)).status).toBe(offset > 0 ? 200 : 401);
          expect((await call(tolerant, '/', `Bearer ${token}`)).status).toBe(offset > -30 ? 200 : 401);
        },
      ),
      { numRuns: 60 },
    );
  });

  it('refuses a token without exp', async () => {
    await expectInvalid(`Bearer ${await sign({ sub: 'ada' }, { exp: null })}`, /exp claim/);
  });

  it('refuses a bad signature, a changed payload and another secret', async () => {
    const token = await sign({ sub: 'ada' });
    const [h, p, s] = token.split('.');
    // A middle character: the last one of a signature may differ only in padding bits.
    await expectInvalid(`Bearer ${h}.${p}.${s.slice(0, 10)}${s[10] === 'A' ? 'B' : 'A'}${s.slice(11)}`, /signature/);
    const forged = toBase64Url(encoder.encode(JSON.stringify({ sub: 'admin', exp: 9_999_999_999 })));
    await expectInvalid(`Bearer ${h}.${forged}.${s}`, /signature/);
    await expectInvalid(`Bearer ${await sign({ sub: 'ada' }, { secret: 'another-secret' })}`, /signature/);
  });

  it('refuses alg none, and algorithms other than the accepted ones', async () => {
    const header = toBase64Url(encoder.encode('{"alg":"none","typ":"JWT"}'));
    const payload = toBase64Url(encoder.encode(JSON.stringify({ sub: 'admin', exp: 9_999_999_999 })));
    await expectInvalid(`Bearer ${header}.${payload}.`, /algorithm|not a valid JWT/);
    await expectInvalid(`Bearer ${await sign({ sub: 'ada' }, { alg: 'HS512' })}`, /algorithm/);
  });

  it('refuses an RS256 token forged with the public key as an HMAC secret (algorithm confusion)', async () => {
    const { publicKey, privateKey } = await generateKeyPair('RS256', { extractable: true });
    const rs = new App();
    rs.use(jwt({ key: publicKey, alg: 'RS256' }));
    rs.get('/', (c) => c.json(jwtPayload(c)));
    const good = await new SignJWT({ sub: 'ada' }).setProtectedHeader({ alg: 'RS256' }).setExpirationTime('1h').sign(privateKey);
    expect((await call(rs, '/', `Bearer ${good}`)).status).toBe(200);
    const jwk = JSON.stringify(await exportJWK(publicKey));
    const forged = await new SignJWT({ sub: 'admin' }).setProtectedHeader({ alg: 'HS256' }).setExpirationTime('1h').sign(encoder.encode(jwk));
    const res = await call(rs, '/', `Bearer ${forged}`);
    expect(res.status).toBe(401);
    expect(res.headers.get('www-authenticate')).toContain('invalid_token');
  });

  it('verifies ES256 tokens against a JWKS, picking the key by kid', async () => {
    const one = await generateKeyPair('ES256', { extractable: true });
    const two = await generateKeyPair('ES256', { extractable: true });
    const jwks = createLocalJWKSet({ keys: [{ ...(await exportJWK(one.publicKey)), kid: 'one', alg: 'ES256' }] });
    const es = new App();
    es.use(jwt({ key: jwks, alg: 'ES256' }));
    es.get('/', (c) => c.json(jwtPayload(c)));
    const make = (key: CryptoKey, kid: string) => new SignJWT({ sub: 'ada' }).setProtectedHeader({ alg: 'ES256', kid }).setExpirationTime('1h').sign(key);
    expect((await call(es, '/', `Bearer ${await make(one.privateKey, 'one')}`)).status).toBe(200);
    for (const token of [await make(two.privateKey, 'one'), await make(one.privateKey, 'unknown')]) {
      const res = await call(es, '/', `Bearer ${token}`);
      expect(res.status).toBe(401);
      expect(res.headers.get('www-authenticate')).toContain('the signature is not valid');
    }
  });

  it('checks issuer and audience', async () => {
    const strict = new App();
    strict.use(jwt({ secret: SECRET, issuer: 'rove', audience: 'notes' }));
    strict.get('/', (c) => c.text('ok'));
    const make = (iss: string, aud: string) =>
      new SignJWT({}).setProtectedHeader({ alg: 'HS256' }).setIssuer(iss).setAudience(aud).setExpirationTime('1h').sign(encoder.encode(SECRET));
    expect((await call(strict, '/', `Bearer ${await make('rove', 'notes')}`)).status).toBe(200);
    const wrongIss = await call(strict, '/', `Bearer ${await make('evil', 'notes')}`);
    expect(wrongIss.headers.get('www-authenticate')).toContain('iss claim');
    const wrongAud = await call(strict, '/', `Bearer ${await make('rove', 'other')}`);
    expect(wrongAud.headers.get('www-authenticate')).toContain('aud claim');
  });

  it('answers a credential that is not a JWS with 401 invalid_token, and a malformed header with 400 invalid_request', async () => {
    const notJws = await call(app, '/api/me', 'Bearer abc');
    expect(notJws.status).toBe(401);
    expect(notJws.headers.get('www-authenticate')).toMatch(/error="invalid_token"/);
    const malformed = await call(app, '/api/me', 'Bearer a b');
    expect(malformed.status).toBe(400);
    expect(malformed.headers.get('www-authenticate')).toMatch(/error="invalid_request"/);
  });

  it('answers 401 or 400, never 500, to any malformed token (property)', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.oneof(
          fc.string({ maxLength: 100 }),
          fc.tuple(fc.base64String(), fc.base64String(), fc.base64String()).map((p) => p.join('.')),
          fc.jsonValue().map((v) => `${toBase64Url(encoder.encode(JSON.stringify(v)))}.${toBase64Url(encoder.encode(JSON.stringify(v)))}.sig`),
        ),
        async (token) => {
          let res: Response;
          try {
            res = await call(app, '/api/me', `Bearer ${token}`);
          } catch {
            return; // not a valid header value
          }
          expect([400, 401]).toContain(res.status);
          expect(res.headers.get('www-authenticate')).toMatch(res.status === 400 ? /error="invalid_request"/ : /^Bearer realm="api"/);
        },
      ),
      { numRuns: 150 },
    );
  });

  it('refuses a huge token unread', async () => {
    const res = await call(app, '/api/me', `Bearer ${'a'.repeat(20_000)}`);
    expect(res.status).toBe(400);
    expect(res.headers.get('www-authenticate')).toMatch(/error="invalid_request"/);
  });

  it('refuses bad options when registered', () => {
    expect(() => jwt({} as never)).toThrow(/secret.*key/);
    expect(() => jwt({ secret: SECRET, alg: 'none' })).toThrow(/none/);
    expect(() => jwt({ secret: SECRET, alg: 'RS256' })).toThrow(/HS256/);
    expect(() => jwt({ key: new Uint8Array(8) })).toThrow(/algorithms/);
    expect(() => jwt({ secret: '' })).toThrow(/empty/);
  });

  it('emits auth:failed with the reason', async () => {
    const seen: unknown[] = [];
    app.on('auth:failed', (e) => void seen.push(e.metadata));
    await call(app, '/api/me', `Bearer ${await sign({}, { exp: 1 })}`);
    expect(seen).toEqual([{ scheme: 'bearer', reason: 'expired', method: 'GET', path: '/api/me' }]);
  });
});
