import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { App, bodyLimit } from '../../../src/index.ts';
import { csrf, csrfToken } from '../../../src/middleware/csrf/index.ts';
import { getSession, session } from '../../../src/middleware/session/index.ts';

const KEY = 'test-session-secret-0123456789abcdef';
const ORIGIN = 'http://localhost';

function makeApp(options: Parameters<typeof csrf>[0] = {}) {
  const app = new App();
  app.use(session({ keys: [KEY] }));
  app.use(csrf(options));
  app.get('/form', async (c) => c.json({ token: await csrfToken(c), again: await csrfToken(c) }));
  app.post('/submit', async (c) => {
    const type = c.req.header('content-type') ?? '';
    if (type.includes('json')) return c.json({ json: await c.req.json() });
    if (type.includes('form')) return c.json({ form: await c.req.form() });
    return c.json({ text: await c.req.text() });
  });
  app.delete('/thing', (c) => c.text('deleted'));
  return app;
}

/** A GET /form: the session cookie and a token. */
async function visit(app: App): Promise<{ cookie: string; token: string; again: string }> {
  const res = await app.fetch(new Request(`${ORIGIN}/form`));
  const cookie = res.headers.get('set-cookie')!.split(';')[0];
  const { token, again } = (await res.json()) as { token: string; again: string };
  return { cookie, token, again };
}

function post(app: App, headers: Record<string, string>, body?: BodyInit, path = '/submit', method = 'POST') {
  return app.fetch(new Request(ORIGIN + path, { method, headers, body }));
}

async function refusal(res: Response): Promise<string> {
  expect(res.status).toBe(403);
  expect(res.headers.get('content-type')).toBe('application/problem+json');
  const problem = (await res.json()) as { detail: string; title: string };
  expect(problem.title).toBe('Forbidden');
  expect(problem.detail).toMatch(/^CSRF: /);
  return problem.detail;
}

describe('csrf > origin rules', () => {
  it('lets safe methods through whatever their origin', async () => {
    const app = makeApp();
    const res = await app.fetch(new Request(`${ORIGIN}/form`, { headers: { origin: 'https://evil.example', 'sec-fetch-site': 'cross-site' } }));
    expect(res.status).toBe(200);
  });

  it('refuses an unsafe request from another origin, naming the origin', async () => {
    const app = makeApp({ token: false });
    for (const method of ['POST', 'PUT', 'PATCH', 'DELETE']) {
      const res = await post(app, { origin: 'https://evil.example' }, undefined, '/thing', method);
      expect(await refusal(res)).toBe('CSRF: origin https://evil.example is not allowed');
    }
  });

  it('refuses Origin: null, and an Origin that only looks like ours', async () => {
    const app = makeApp({ token: false });
    expect(await refusal(await post(app, { origin: 'null' }, '{}'))).toMatch(/origin "null"/);
    for (const o of [
      'http://localhost.evil.example',
      'https://localhost',
      'http://localhost:8080',
      'http://LOCALHOST.evil',
      'http://evil.example#http://localhost',
    ])
      await refusal(await post(app, { origin: o }, '{}'));
  });

  it('lets the same origin through, and origins listed in `origin`', async () => {
    const app = makeApp({ token: false, origin: ['https://app.example', 'https://admin.example:8443/'] });
    for (const o of [ORIGIN, 'https://app.example', 'https://admin.example:8443'])
      expect((await post(app, { origin: o, 'content-type': 'application/json' }, '{}')).status).toBe(200);
    const fn = makeApp({ token: false, origin: (o) => o.endsWith('.trusted.example') });
    expect((await post(fn, { origin: 'https://a.trusted.example' }, 'x')).status).toBe(200);
    await refusal(await post(fn, { origin: 'https://trusted.example.evil' }, 'x'));
  });

  it('refuses every Origin but its own and the listed ones (property)', async () => {
    const app = makeApp({ token: false, origin: ['https://app.example'] });
    await fc.assert(
      fc.asyncProperty(
        fc.oneof(
          fc.webUrl().map((u) => new URL(u).origin),
          fc.string({ maxLength: 30 }),
          fc.constantFrom(ORIGIN, 'https://app.example', 'null', 'HTTP://LOCALHOST', `${ORIGIN}/`),
        ),
        fc.constantFrom('POST', 'PUT', 'PATCH', 'DELETE'),
        async (origin, method) => {
          let res: Response;
          try {
            res = await post(app, { origin }, undefined, '/thing', method);
          } catch {
            return; // not a valid header value
          }
          const allowed = origin === ORIGIN || origin === 'https://app.example';
          expect(res.status).toBe(allowed ? (method === 'DELETE' ? 200 : 405) : 403);
        },
      ),
      { numRuns: 200 },
    );
  });

  it('falls back to Sec-Fetch-Site without Origin', async () => {
    const app = makeApp({ token: false });
    for (const site of ['cross-site', 'same-site', 'bogus'])
      expect(await refusal(await post(app, { 'sec-fetch-site': site }, 'x'))).toContain('Sec-Fetch-Site');
    for (const site of ['same-origin', 'none']) expect((await post(app, { 'sec-fetch-site': site }, 'x')).status).toBe(200);
  });

  it('trusts Origin over a forged Sec-Fetch-Site', async () => {
    const app = makeApp({ token: false });
    await refusal(await post(app, { origin: 'https://evil.example', 'sec-fetch-site': 'same-origin' }, 'x'));
  });

  it('does not echo CR/LF or long origins back verbatim', async () => {
    const app = makeApp({ token: false });
    // Headers cannot carry CR/LF here; the refusal still escapes what it repeats and cuts it short.
    const long = `https://${'a'.repeat(5000)}.example`;
    const detail = await refusal(await post(app, { origin: long }, 'x'));
    expect(detail.length).toBeLessThan(300);
  });

  it('refuses bad origins in the option when registered', () => {
    expect(() => csrf({ origin: 'app.example' })).toThrow(/not an origin/);
    expect(() => csrf({ origin: 'https://app.example/path' })).toThrow(/not an origin/);
    expect(() => csrf({ origin: ['https://ok.example', 'javascript:alert(1)'] })).toThrow(/not an origin/);
  });

  it('does not check requests that carry a bearer token (browsers never attach one by themselves)', async () => {
    const app = makeApp();
    for (const origin of [undefined, 'https://app.example']) {
      const headers: Record<string, string> = { authorization: 'Bearer abc.def.ghi', 'content-type': 'application/json' };
      if (origin) headers.origin = origin;
      expect((await post(app, headers, '{}')).status).toBe(200);
    }
    // Basic credentials are attached by browsers: no exemption for them.
    await refusal(await post(app, { authorization: `Basic ${btoa('a:b')}`, origin: 'https://evil.example' }, '{}'));
    await refusal(await post(app, { authorization: 'Bearer', origin: 'https://evil.example' }, '{}'));
  });

  it('emits csrf:rejected with the rule', async () => {
    const app = makeApp();
    const seen: unknown[] = [];
    app.on('csrf:rejected', (e) => void seen.push(e.metadata));
    await post(app, { origin: 'https://evil.example' }, 'x');
    await post(app, { origin: ORIGIN, 'content-type': 'application/x-www-form-urlencoded' }, 'a=1');
    expect(seen).toEqual([
      { rule: 'origin', method: 'POST', path: '/submit', origin: 'https://evil.example' },
      { rule: 'token-missing', method: 'POST', path: '/submit', origin: ORIGIN },
    ]);
  });
});

describe('csrf > tokens', () => {
  it('accepts a form post with the session token, and the handler still reads the form', async () => {
    const app = makeApp();
    const { cookie, token } = await visit(app);
    const body = new URLSearchParams([
      ['_csrf', token],
      ['name', 'ada'],
      ['__proto__', 'x'],
    ]);
    const res = await post(app, { cookie, origin: ORIGIN, 'content-type': 'application/x-www-form-urlencoded' }, body);
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ form: JSON.parse(`{"_csrf":"${token}","name":"ada","__proto__":"x"}`) });
  });

  it('reads the token from a multipart form too', async () => {
    const app = makeApp();
    const { cookie, token } = await visit(app);
    const form = new FormData();
    form.set('_csrf', token);
    form.set('file', new File(['hello'], 'a.txt'));
    const res = await app.fetch(new Request(`${ORIGIN}/submit`, { method: 'POST', headers: { cookie, origin: ORIGIN }, body: form }));
    expect(res.status).toBe(200);
  });

  it('gives a different token text on each call, all valid', async () => {
    const app = makeApp();
    const { cookie, token, again } = await visit(app);
    expect(token).not.toBe(again);
    for (const t of [token, again]) expect((await post(app, { cookie, 'x-csrf-token': t, origin: ORIGIN }, 'x')).status).toBe(200);
  });

  it('refuses a form post without a token, with a wrong one, or with another session token', async () => {
    const app = makeApp();
    const form = { origin: ORIGIN, 'content-type': 'application/x-www-form-urlencoded' };
    const mine = await visit(app);
    const theirs = await visit(app);
    expect(await refusal(await post(app, { ...form, cookie: mine.cookie }, 'name=ada'))).toMatch(/no token in the _csrf form field/);
    expect(await refusal(await post(app, { ...form, cookie: mine.cookie }, `_csrf=${theirs.token}`))).toMatch(/does not belong to this session/);
    expect(await refusal(await post(app, { ...form, cookie: mine.cookie }, '_csrf=abc'))).toMatch(/does not belong/);
    expect(await refusal(await post(app, form, `_csrf=${mine.token}`))).toMatch(/does not belong/);
    // A token repeated, or sent as a file, is not a token.
    expect(await refusal(await post(app, { ...form, cookie: mine.cookie }, `_csrf=x&_csrf=${mine.token}`))).toMatch(/does not belong/);
  });

  it('a refused token creates no session and sends no cookie', async () => {
    const app = makeApp();
    const res = await post(app, { origin: ORIGIN, 'x-csrf-token': 'A'.repeat(86) }, 'x');
    await refusal(res);
    expect(res.headers.get('set-cookie')).toBeNull();
  });

  it('refuses any tampered token (property)', async () => {
    const app = makeApp();
    const { cookie, token } = await visit(app);
    await fc.assert(
      fc.asyncProperty(fc.nat({ max: token.length - 1 }), fc.constantFrom(...'ABCabc019-_'), async (i, ch) => {
        fc.pre(token[i] !== ch);
        const bad = token.slice(0, i) + ch + token.slice(i + 1);
        const res = await post(app, { cookie, origin: ORIGIN, 'x-csrf-token': bad }, 'x');
        // The last character carries only a few bits: a change there may decode to the same bytes.
        if (i === token.length - 1 && res.status === 200) return;
        expect(res.status).toBe(403);
      }),
      { numRuns: 60 },
    );
  });

  it('checks a token sent in the header even on a JSON post', async () => {
    const app = makeApp();
    const { cookie } = await visit(app);
    const json = { cookie, origin: ORIGIN, 'content-type': 'application/json' };
    expect((await post(app, json, '{"a":1}')).status).toBe(200);
    await refusal(await post(app, { ...json, 'x-csrf-token': 'nope' }, '{"a":1}'));
  });

  it('needs a token when neither Origin nor Sec-Fetch-Site is sent', async () => {
    const app = makeApp();
    const { cookie, token } = await visit(app);
    expect(await refusal(await post(app, { cookie, 'content-type': 'application/json' }, '{}'))).toMatch(/no token/);
    expect((await post(app, { cookie, 'content-type': 'application/json', 'x-csrf-token': token }, '{}')).status).toBe(200);
    const originOnly = makeApp({ token: false });
    expect((await post(originOnly, { 'content-type': 'application/json' }, '{}')).status).toBe(200);
  });

  it('a text/plain post (a form with enctype=text/plain) needs the header', async () => {
    const app = makeApp();
    const { cookie, token } = await visit(app);
    await refusal(await post(app, { cookie, origin: ORIGIN, 'content-type': 'text/plain' }, `_csrf=${token}`));
  });

  it('reads the form within the body limit: a larger one is a 413, not buffered', async () => {
    const app = new App({ bodyLimit: 1000 });
    app.use(session({ keys: [KEY] }));
    app.use(csrf());
    app.post('/submit', (c) => c.text('ok'));
    app.post('/upload', bodyLimit(100_000), csrf(), (c) => c.text('ok'));
    const res = await post(app, { origin: ORIGIN, 'content-type': 'application/x-www-form-urlencoded' }, `a=${'x'.repeat(5000)}`);
    expect(res.status).toBe(413);
  });

  it('without session() it says what to register', async () => {
    const app = new App({ dev: true });
    app.use(csrf());
    app.post('/', (c) => c.text('ok'));
    const res = await post(app, { origin: ORIGIN, 'content-type': 'application/x-www-form-urlencoded' }, '_csrf=x', '/');
    expect(res.status).toBe(500);
    expect(JSON.stringify(await res.json())).toContain('session({ keys })');
  });

  it('renews the secret at regenerate(): tokens from before login are refused, new ones work', async () => {
    const app = makeApp();
    app.post('/login', async (c) => {
      await getSession(c).regenerate();
      return c.text('ok');
    });
    const { cookie, token } = await visit(app);
    const login = await post(app, { cookie, origin: ORIGIN, 'x-csrf-token': token }, 'x', '/login');
    const after = login.headers.get('set-cookie')!.split(';')[0];
    expect(after).not.toBe(cookie);
    await refusal(await post(app, { cookie: after, origin: ORIGIN, 'x-csrf-token': token }, 'x'));
    const page = await app.fetch(new Request(`${ORIGIN}/form`, { headers: { cookie: after } }));
    const renewed = page.headers.get('set-cookie')!.split(';')[0];
    const { token: fresh } = (await page.json()) as { token: string };
    expect((await post(app, { cookie: renewed, origin: ORIGIN, 'x-csrf-token': fresh }, 'x')).status).toBe(200);
  });
});
