// Sessions, CSRF, CORS and auth over real HTTP on every runtime (fixture: test/conformance/security).
import { SignJWT } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rawRequest } from './raw.ts';
import { ALLOWED_ORIGIN, JWT_SECRET } from './security/app.ts';
import { CONFORMANCE_RUNTIMES, type Running, type Runtime, start } from './servers.ts';

/** One character changed in the middle, where every base64url character carries six bits (the last ones may be padding bits). */
const tamper = (token: string) => token.slice(0, 10) + (token[10] === 'A' ? 'B' : 'A') + token.slice(11);

const FIXTURE = 'test/conformance/security';
const servers = new Map<Runtime, Running>();
const startErrors: string[] = [];

beforeAll(async () => {
  await Promise.all(
    CONFORMANCE_RUNTIMES.map((runtime) =>
      start(runtime, FIXTURE).then(
        (server) => void servers.set(runtime, server),
        (error: unknown) => void startErrors.push(String(error)),
      ),
    ),
  );
}, 90_000);

afterAll(async () => {
  await Promise.all([...servers.values()].map((server) => server.stop()));
});

function server(runtime: Runtime): Running {
  const found = servers.get(runtime);
  if (!found) throw new Error(`the ${runtime} fixture did not start:\n${startErrors.join('\n')}`);
  return found;
}

/** The `name=value` of a Set-Cookie for `name`, and the whole line. */
function setCookie(res: Response, name: string): { pair: string; line: string } | undefined {
  const line = res.headers.getSetCookie().find((h) => h.startsWith(`${name}=`));
  return line === undefined ? undefined : { pair: line.split(';')[0], line };
}

const form = (fields: Record<string, string> | [string, string][]) => new URLSearchParams(fields as Record<string, string>).toString();
const FORM = 'application/x-www-form-urlencoded';

describe.each(CONFORMANCE_RUNTIMES)('security on %s', (runtime) => {
  const url = (path: string) => server(runtime).url + path;
  const origin = () => server(runtime).url;

  /** GET /<store>/login (with the session `cookie`, if any): the session cookie after it, and the form's token. */
  async function loginPage(store: string, name: string, cookie?: string): Promise<{ cookie: string; token: string }> {
    const res = await fetch(url(`/${store}/login`), { headers: cookie === undefined ? {} : { cookie } });
    expect(res.status).toBe(200);
    const set = setCookie(res, name);
    if (cookie === undefined) expect(set).toBeDefined();
    const token = /name="_csrf" value="([^"]+)"/.exec(await res.text())?.[1];
    expect(token).toMatch(/^[A-Za-z0-9_-]{86}$/);
    return { cookie: set?.pair ?? cookie!, token: token! };
  }

  function post(path: string, body: string, headers: Record<string, string>) {
    return fetch(url(path), { method: 'POST', body, headers: { 'content-type': FORM, ...headers }, redirect: 'manual' });
  }

  for (const [store, name] of [
    ['cookie', 'c.sid'],
    ['memory', 'm.sid'],
  ] as const) {
    it(`${store} store: log in with the form's token, read the session, log out`, async () => {
      const { cookie, token } = await loginPage(store, name);
      const login = await post(`/${store}/login`, form({ name: 'ada', _csrf: token }), { cookie, origin: origin() });
      expect(login.status).toBe(303);
      const session = setCookie(login, name)!;
      expect(session.line).toMatch(/; Path=\/; HttpOnly; SameSite=Lax/);
      expect(session.line).not.toContain('Secure'); // plain http
      expect(session.pair).not.toBe(cookie);
      const me = await fetch(url(`/${store}/me`), { headers: { cookie: session.pair } });
      expect(me.status).toBe(200);
      expect(await me.json()).toEqual({ name: 'ada' });
      // Reading sends no cookie back.
      expect(me.headers.get('set-cookie')).toBeNull();
      // regenerate() renewed the CSRF secret: the login page's token is refused now; a page after login gives the new one.
      const stale = await post(`/${store}/logout`, form({ _csrf: token }), { cookie: session.pair, origin: origin() });
      expect(stale.status).toBe(403);
      const fresh = await loginPage(store, name, session.pair);
      const logout = await post(`/${store}/logout`, form({ _csrf: fresh.token }), { cookie: fresh.cookie, origin: origin() });
      expect(logout.status).toBe(303);
      expect(setCookie(logout, name)!.line).toMatch(/Max-Age=0/);
      const after = await fetch(url(`/${store}/me`), { headers: { cookie: fresh.cookie } });
      // A server store forgets the session; a sealed cookie stays readable until it expires (docs/session.md).
      expect(after.status).toBe(store === 'memory' ? 401 : 200);
    });

    it(`${store} store: a session cookie planted before login is worth nothing after it`, async () => {
      const { cookie, token } = await loginPage(store, name);
      const login = await post(`/${store}/login`, form({ name: 'ada', _csrf: token }), { cookie, origin: origin() });
      expect(login.status).toBe(303);
      const before = await fetch(url(`/${store}/me`), { headers: { cookie } });
      expect(before.status).toBe(401);
    });

    it(`${store} store: a request that does not touch the session sends no cookie`, async () => {
      const res = await fetch(url(`/${store}/untouched`));
      expect(res.status).toBe(200);
      expect(res.headers.get('set-cookie')).toBeNull();
    });

    it(`${store} store: tampered, truncated, foreign and huge cookies read as no session`, async () => {
      const { cookie, token } = await loginPage(store, name);
      const login = await post(`/${store}/login`, form({ name: 'ada', _csrf: token }), { cookie, origin: origin() });
      const pair = setCookie(login, name)!.pair;
      const value = pair.slice(name.length + 1);
      const flipped = value.slice(0, 30) + (value[30] === 'A' ? 'B' : 'A') + value.slice(31);
      for (const bad of [flipped, value.slice(0, -4), `${value}AAAA`, 'x', 'A'.repeat(6000)]) {
        const res = await fetch(url(`/${store}/me`), { headers: { cookie: `${name}=${bad}` } });
        expect(res.status).toBe(401);
      }
    });

    it(`${store} store: __proto__ and constructor are plain session keys`, async () => {
      const { cookie, token } = await loginPage(store, name);
      const put = await post(
        `/${store}/put`,
        form([
          ['_csrf', token],
          ['__proto__', 'p'],
          ['constructor', 'c'],
        ]),
        { cookie, origin: origin() },
      );
      expect(put.status).toBe(200);
      const next = setCookie(put, name)!.pair;
      const all = await (await fetch(url(`/${store}/all`), { headers: { cookie: next } })).text();
      expect(JSON.parse(all)).toEqual(JSON.parse('{"__proto__":"p","constructor":"c"}'));
    });

    it(`${store} store: CSRF refuses a form without the token, or from another origin`, async () => {
      const { cookie, token } = await loginPage(store, name);
      const cases: [string, Record<string, string>, RegExp][] = [
        [form({ name: 'x' }), { cookie, origin: origin() }, /^CSRF: no token/],
        [form({ name: 'x', _csrf: token }), { cookie, origin: 'https://evil.example' }, /^CSRF: origin https:\/\/evil\.example is not allowed$/],
        [form({ name: 'x', _csrf: token }), { cookie, 'sec-fetch-site': 'cross-site' }, /^CSRF: Sec-Fetch-Site/],
        [form({ name: 'x', _csrf: token }), { cookie, origin: 'https://evil.example', 'sec-fetch-site': 'same-origin' }, /^CSRF: origin/],
        [form({ name: 'x', _csrf: tamper(token) }), { cookie, origin: origin() }, /^CSRF: the _csrf token/],
        [form({ name: 'x', _csrf: token }), { origin: origin() }, /^CSRF: the _csrf token/],
      ];
      for (const [body, headers, detail] of cases) {
        const res = await post(`/${store}/login`, body, headers);
        expect(res.status).toBe(403);
        expect(res.headers.get('content-type')).toBe('application/problem+json');
        const problem = (await res.json()) as { status: number; detail: string };
        expect(problem.status).toBe(403);
        expect(problem.detail).toMatch(detail);
      }
    });
  }

  it('CSRF: a form over the body limit is a 413, not buffered', async () => {
    const { cookie } = await loginPage('cookie', 'c.sid');
    const res = await post('/cookie/login', `_csrf=${'x'.repeat(2 * 1024 * 1024)}`, { cookie, origin: origin() });
    expect(res.status).toBe(413);
  });

  it('CORS: a preflight from the allowed origin gets 204 and the allowed methods and headers, the first time and when kept', async () => {
    for (let i = 0; i < 2; i++) {
      const res = await fetch(url('/api/notes'), {
        method: 'OPTIONS',
        headers: { origin: ALLOWED_ORIGIN, 'access-control-request-method': 'POST', 'access-control-request-headers': 'content-type, authorization' },
      });
      expect(res.status).toBe(204);
      expect(res.headers.get('access-control-allow-origin')).toBe(ALLOWED_ORIGIN);
      expect(res.headers.get('access-control-allow-methods')).toContain('POST');
      expect(res.headers.get('access-control-allow-headers')).toBe('content-type, authorization');
      expect(res.headers.get('access-control-allow-credentials')).toBe('true');
      expect(res.headers.get('access-control-max-age')).toBe('600');
      expect(res.headers.get('vary')).toContain('Origin');
      expect(res.headers.get('content-length') ?? '0').toBe('0');
      expect(await res.text()).toBe('');
    }
  });

  it('CORS: another origin gets no Access-Control-Allow-Origin', async () => {
    const pre = await fetch(url('/api/notes'), { method: 'OPTIONS', headers: { origin: 'https://evil.example', 'access-control-request-method': 'POST' } });
    expect(pre.status).toBe(403);
    expect(pre.headers.get('access-control-allow-origin')).toBeNull();
    const get = await fetch(url('/api/notes'), { headers: { origin: 'https://evil.example' } });
    expect(get.status).toBe(200);
    expect(get.headers.get('access-control-allow-origin')).toBeNull();
    expect(get.headers.get('vary')).toContain('Origin');
    const ok = await fetch(url('/api/notes'), { headers: { origin: ALLOWED_ORIGIN } });
    expect(ok.headers.get('access-control-allow-origin')).toBe(ALLOWED_ORIGIN);
    expect(ok.headers.get('access-control-expose-headers')).toBe('ETag');
  });

  it('CORS: requested headers with CR/LF or odd characters are never reflected', async () => {
    // Over raw TCP: fetch would refuse to send these.
    const host = new URL(server(runtime).url).host;
    for (const requested of ['x-a, x b', 'x-a\tx-b:', 'x-a,\u0001']) {
      const res = await rawRequest(
        server(runtime).url,
        [
          'OPTIONS /api/notes HTTP/1.1',
          `Host: ${host}`,
          `Origin: ${ALLOWED_ORIGIN}`,
          'Access-Control-Request-Method: POST',
          `Access-Control-Request-Headers: ${requested}`,
        ].join('\r\n'),
      );
      expect(res.status === 400 || res.status === 403).toBe(true);
      expect(res.headers['access-control-allow-headers']).toBeUndefined();
    }
  });

  it('IP restriction: loopback is let in where listed, refused where not', async () => {
    // workerd has no socket address: c.req.ip is CF-Connecting-IP, which the Cloudflare edge sets.
    const as = (ip: string): Record<string, string> => (runtime === 'workerd' ? { 'cf-connecting-ip': ip } : {});
    const local = await fetch(url('/local'), { headers: as('127.0.0.1') });
    expect(local.status).toBe(200);
    expect(await local.text()).toMatch(/^hello (127\.0\.0\.1|::1|::ffff:127\.0\.0\.1)$/);
    const intranet = await fetch(url('/intranet'), { headers: { ...as('127.0.0.1'), 'x-forwarded-for': '10.0.0.1' } });
    expect(intranet.status).toBe(403);
    expect(((await intranet.json()) as { detail: string }).detail).toMatch(/^IP: .* is not allowed$/);
    if (runtime === 'workerd') {
      expect((await fetch(url('/intranet'), { headers: as('10.1.1.1') })).status).toBe(200);
      expect((await fetch(url('/intranet'), { headers: as('10.6.6.6') })).status).toBe(403);
    }
  });

  it('control characters (a bare CR included) in Origin are never reflected, and never a 500', async () => {
    const host = new URL(server(runtime).url).host;
    for (const [line, extra] of [
      ['OPTIONS /api/notes', ['Access-Control-Request-Method: POST']],
      ['GET /api/notes', []],
      ['POST /cookie/logout', ['Content-Type: application/x-www-form-urlencoded', 'Content-Length: 0']],
    ] as const) {
      for (const origin of [`${ALLOWED_ORIGIN}\u0001`, `${ALLOWED_ORIGIN}\u007f`, `${ALLOWED_ORIGIN} x`, `${ALLOWED_ORIGIN}\rSet-Cookie: a=b`]) {
        const res = await rawRequest(server(runtime).url, [`${line} HTTP/1.1`, `Host: ${host}`, `Origin: ${origin}`, ...extra].join('\r\n'));
        expect(res.status, `${line} ${JSON.stringify(origin)}`).toBeLessThan(500);
        // workerd ends a header line at a bare CR: the app then sees exactly the allowed origin, and may allow it.
        const bareCr = origin.includes('\r') && runtime === 'workerd';
        if (bareCr) expect([undefined, ALLOWED_ORIGIN]).toContain(res.headers['access-control-allow-origin']);
        else expect(res.headers['access-control-allow-origin']).toBeUndefined();
        expect(res.setCookie.join()).not.toContain('a=b');
      }
    }
  });

  it('a flood of cookies or one huge Cookie header is a 4xx or no session, never a 500', async () => {
    const many = Array.from({ length: 300 }, (_, i) => `k${i}=${'v'.repeat(20)}`).join('; ');
    const res = await fetch(url('/cookie/me'), { headers: { cookie: `${many}; c.sid=AAAA` } });
    expect(res.status).toBe(401);
    const huge = await fetch(url('/cookie/me'), { headers: { cookie: `c.sid=${'A'.repeat(30_000)}` } });
    expect(huge.status).toBeGreaterThanOrEqual(400);
    expect(huge.status).toBeLessThan(500);
  });

  it('Basic auth: 401 with the realm, 200 with the password, 401 with a wrong one', async () => {
    const none = await fetch(url('/admin'));
    expect(none.status).toBe(401);
    expect(none.headers.get('www-authenticate')).toBe('Basic realm="Rove admin", charset="UTF-8"');
    expect((await fetch(url('/admin'), { headers: { authorization: `Basic ${btoa('admin:secret')}` } })).status).toBe(200);
    expect((await fetch(url('/admin'), { headers: { authorization: `Basic ${btoa('admin:wrong')}` } })).status).toBe(401);
  });

  it('JWT: a valid token posts; expired and badly signed ones get 401 with a Bearer challenge', async () => {
    const key = new TextEncoder().encode(JWT_SECRET);
    const good = await new SignJWT({ sub: 'ada' }).setProtectedHeader({ alg: 'HS256' }).setExpirationTime('1h').sign(key);
    const send = (token: string) =>
      fetch(url('/api/notes'), { method: 'POST', headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' }, body: '{"text":"hi"}' });
    const ok = await send(good);
    expect(ok.status).toBe(201);
    expect(await ok.json()).toEqual({ by: 'ada', note: { text: 'hi' } });
    const expired = await new SignJWT({ sub: 'ada' })
      .setProtectedHeader({ alg: 'HS256' })
      .setExpirationTime(Math.floor(Date.now() / 1000) - 60)
      .sign(key);
    const bad = await new SignJWT({ sub: 'ada' }).setProtectedHeader({ alg: 'HS256' }).setExpirationTime('1h').sign(new TextEncoder().encode('wrong-secret'));
    for (const [token, why] of [
      [expired, 'expired'],
      [bad, 'signature'],
    ]) {
      const res = await send(token);
      expect(res.status).toBe(401);
      expect(res.headers.get('www-authenticate')).toMatch(new RegExp(`^Bearer realm="api", error="invalid_token", error_description=".*${why}`));
    }
  });
});
