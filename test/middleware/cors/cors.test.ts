import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { NodeResponse, respondLight } from '../../../adapters/node/response.ts';
import { App } from '../../../src/index.ts';
import { cors } from '../../../src/middleware/cors/index.ts';

const APP = 'https://app.example';
const EVIL = 'https://evil.example';

function makeApp(options: Parameters<typeof cors>[0] = {}) {
  const app = new App();
  app.use('/api', cors(options));
  app.get('/api/notes', (c) => c.json([]));
  app.post('/api/notes', (c) => c.json({ ok: true }, 201));
  app.get('/api/fail', () => {
    throw new Error('boom');
  });
  app.get('/api/fetched', () => new Response('x', { headers: { vary: 'Accept-Encoding' } }));
  app.get('/other', (c) => c.text('no cors here'));
  return app;
}

function preflight(app: App | { fetch: (r: Request) => Response | Promise<Response> }, origin: string, method = 'POST', headers?: string, path = '/api/notes') {
  const h: Record<string, string> = { origin, 'access-control-request-method': method };
  if (headers !== undefined) h['access-control-request-headers'] = headers;
  return app.fetch(new Request(`http://localhost${path}`, { method: 'OPTIONS', headers: h }));
}

const get = (app: App, path: string, origin?: string) => app.fetch(new Request(`http://localhost${path}`, { headers: origin === undefined ? {} : { origin } }));

describe('cors > preflight', () => {
  it('answers 204 with the origin, methods, requested headers, max-age and Vary', async () => {
    const app = makeApp({ origin: APP, maxAge: 3600 });
    const res = await preflight(app, APP, 'POST', 'content-type, authorization');
    expect(res.status).toBe(204);
    expect(res.headers.get('access-control-allow-origin')).toBe(APP);
    expect(res.headers.get('access-control-allow-methods')).toBe('GET, HEAD, PUT, POST, DELETE, PATCH');
    expect(res.headers.get('access-control-allow-headers')).toBe('content-type, authorization');
    expect(res.headers.get('access-control-max-age')).toBe('3600');
    expect(res.headers.get('vary')).toBe('Origin, Access-Control-Request-Headers');
    expect(res.headers.get('access-control-allow-credentials')).toBeNull();
    expect(await res.text()).toBe('');
  });

  it('answers a repeated preflight the same, and a remembered answer serves no other origin, method or headers', async () => {
    const app = makeApp({ origin: (o) => o === APP || o === 'https://b.example', methods: ['GET', 'PUT'], headers: ['content-type'] });
    const first = await preflight(app, APP, 'PUT', 'content-type');
    const again = await preflight(app, APP, 'PUT', 'content-type');
    expect(again.status).toBe(204);
    expect([...again.headers]).toEqual([...first.headers]);
    const other = await preflight(app, 'https://b.example', 'PUT', 'content-type');
    expect(other.headers.get('access-control-allow-origin')).toBe('https://b.example');
    expect((await preflight(app, EVIL, 'PUT', 'content-type')).status).toBe(403);
    expect((await preflight(app, APP, 'DELETE', 'content-type')).status).toBe(403);
    expect((await preflight(app, APP, 'PUT', 'content-type, x-secret')).status).toBe(403);
    // Many distinct asks stay bounded and keep answering right.
    for (let i = 0; i < 600; i++) expect((await preflight(app, APP, 'PUT', i % 2 ? 'content-type' : ` content-type${' '.repeat(i % 7)}`)).status).toBe(204);
  });

  it('answers an allowed preflight without a promise when nothing else is async', () => {
    const app = new App();
    app.use('/api', cors({ origin: APP }));
    const ask = (origin: string) =>
      app.fetch(new Request('http://localhost/api/x', { method: 'OPTIONS', headers: { origin, 'access-control-request-method': 'PUT' } }));
    for (let i = 0; i < 2; i++) {
      const res = ask(APP);
      expect(res).toBeInstanceOf(Response);
      expect((res as Response).status).toBe(204);
    }
  });

  it('gives each preflight its own copy of a remembered answer: what middleware adds to one stays on it', async () => {
    const app = new App();
    let n = 0;
    app.use(async (c, next) => {
      await next();
      n++;
      c.res.headers.append('vary', 'X-Round');
      c.res.headers.set('x-round', String(n));
    });
    app.use('/api', cors({ origin: APP, headers: ['content-type'] }));
    const answers = [];
    for (let i = 0; i < 3; i++) answers.push(await preflight(app, APP, 'POST', 'content-type'));
    expect(answers.map((r) => r.headers.get('x-round'))).toEqual(['1', '2', '3']);
    for (const r of answers) {
      expect(r.status).toBe(204);
      expect(r.headers.get('vary')).toBe('Origin, X-Round');
      expect(r.headers.get('access-control-allow-origin')).toBe(APP);
      expect(r.body).toBeNull();
    }
  });
  it('on Node (light responses) answers the same, with headers set earlier once each, and a fresh answer each time', async () => {
    const app = new App();
    const handle = app.bind({ respond: respondLight });
    const node = { fetch: (r: Request) => handle(r, {}, undefined) };
    let n = 0;
    app.use(async (c, next) => {
      c.header('x-id', 'abc');
      c.header('set-cookie', 'a=1');
      await next();
      c.res.headers.set('x-round', String(++n));
    });
    app.use('/api', cors({ origin: APP, headers: ['content-type'] }));
    for (let i = 1; i <= 2; i++) {
      const res = await preflight(node, APP, 'POST', 'content-type');
      expect(res).toBeInstanceOf(NodeResponse);
      expect(res.status).toBe(204);
      expect(res.headers.get('access-control-allow-origin')).toBe(APP);
      expect(res.headers.get('access-control-allow-headers')).toBe('content-type');
      expect(res.headers.get('vary')).toBe('Origin');
      expect(res.headers.get('x-id')).toBe('abc');
      expect(res.headers.getSetCookie()).toEqual(['a=1']);
      expect(res.headers.get('x-round')).toBe(String(i));
    }
  });

  it('answers preflights on paths with no OPTIONS route, and on unknown paths under the prefix', async () => {
    const app = makeApp({ origin: APP });
    expect((await preflight(app, APP, 'PUT', undefined, '/api/unknown')).status).toBe(204);
  });

  it('refuses a disallowed origin with 403 and no Access-Control-Allow-Origin', async () => {
    const app = makeApp({ origin: [APP, 'https://b.example'] });
    const res = await preflight(app, EVIL, 'POST', 'content-type');
    expect(res.status).toBe(403);
    expect(res.headers.get('access-control-allow-origin')).toBeNull();
    expect(res.headers.get('vary')).toContain('Origin');
    expect(((await res.json()) as { detail: string }).detail).toBe('CORS: origin https://evil.example is not allowed');
  });

  it('refuses a method or header outside the lists', async () => {
    const app = makeApp({ origin: APP, methods: ['GET', 'PUT'], headers: ['Content-Type'] });
    expect((await preflight(app, APP, 'DELETE')).status).toBe(403);
    expect((await preflight(app, APP, 'POST', 'content-type')).status).toBe(204); // POST never needs listing
    const res = await preflight(app, APP, 'PUT', 'content-type, x-secret');
    expect(res.status).toBe(403);
    expect(((await res.json()) as { detail: string }).detail).toBe('CORS: header x-secret is not allowed');
    const ok = await preflight(app, APP, 'PUT', 'Content-Type');
    expect(ok.headers.get('access-control-allow-headers')).toBe('content-type');
    expect(ok.headers.get('vary')).toBe('Origin');
  });

  it('never reflects a requested header that is not a header name', async () => {
    const app = makeApp({ origin: APP });
    for (const bad of ['x-a, x b', 'x-a,,', 'x-a\tx', 'x:y', '"x"', Array(100).fill('x-h').join(','), `x-${'a'.repeat(5000)}`]) {
      const res = await preflight(app, APP, 'POST', bad);
      expect(res.status).toBe(403);
      expect(res.headers.get('access-control-allow-headers')).toBeNull();
    }
  });

  it('reflects only header names, whatever is asked for (property)', async () => {
    const app = makeApp({ origin: APP });
    await fc.assert(
      fc.asyncProperty(fc.string({ maxLength: 60, unit: 'binary-ascii' }), async (requested) => {
        let res: Response;
        try {
          res = await preflight(app, APP, 'POST', requested);
        } catch {
          return; // Headers refused the value before the app saw it
        }
        const allow = res.headers.get('access-control-allow-headers');
        if (allow !== null) expect(allow).toMatch(/^[!#$%&'*+\-.^_`|~0-9a-z]+(, [!#$%&'*+\-.^_`|~0-9a-z]+)*$/);
        expect([204, 403]).toContain(res.status);
      }),
      { numRuns: 200 },
    );
  });

  it('emits cors:rejected with the rule', async () => {
    const app = makeApp({ origin: APP, methods: ['GET'] });
    const seen: unknown[] = [];
    app.on('cors:rejected', (e) => void seen.push(e.metadata));
    await preflight(app, EVIL);
    await preflight(app, APP, 'DELETE');
    await get(app, '/api/notes', EVIL);
    expect(seen).toEqual([
      { rule: 'origin', origin: EVIL, method: 'OPTIONS', path: '/api/notes', preflight: true },
      { rule: 'method', origin: APP, method: 'OPTIONS', path: '/api/notes', preflight: true },
      { rule: 'origin', origin: EVIL, method: 'GET', path: '/api/notes', preflight: false },
    ]);
  });
});

describe('cors > actual requests', () => {
  it('adds Access-Control-Allow-Origin for an allowed origin, with credentials and exposed headers', async () => {
    const app = makeApp({ origin: APP, credentials: true, exposeHeaders: ['ETag', 'X-Request-Id'] });
    const res = await get(app, '/api/notes', APP);
    expect(res.headers.get('access-control-allow-origin')).toBe(APP);
    expect(res.headers.get('access-control-allow-credentials')).toBe('true');
    expect(res.headers.get('access-control-expose-headers')).toBe('ETag, X-Request-Id');
    expect(res.headers.get('vary')).toBe('Origin');
  });

  it('serves a disallowed origin without CORS headers (the browser hides the response)', async () => {
    const app = makeApp({ origin: APP });
    const res = await get(app, '/api/notes', EVIL);
    expect(res.status).toBe(200);
    expect(res.headers.get('access-control-allow-origin')).toBeNull();
    expect(res.headers.get('vary')).toBe('Origin');
  });

  it('sets Vary: Origin without an Origin too, and adds to an existing Vary', async () => {
    const app = makeApp({ origin: APP });
    expect((await get(app, '/api/notes')).headers.get('vary')).toBe('Origin');
    expect((await get(app, '/api/fetched', APP)).headers.get('vary')).toBe('Accept-Encoding, Origin');
  });

  it('adds its headers to error responses and to immutable responses', async () => {
    const app = makeApp({ origin: APP });
    const fail = await get(app, '/api/fail', APP);
    expect(fail.status).toBe(500);
    expect(fail.headers.get('access-control-allow-origin')).toBe(APP);
    const immutable = new App();
    immutable.use(cors({ origin: APP }));
    immutable.get('/', () => Response.redirect('http://localhost/x', 302));
    expect((await get(immutable, '/', APP)).headers.get('access-control-allow-origin')).toBe(APP);
  });

  it('origin "*" answers * to anyone, with no Vary', async () => {
    const app = makeApp();
    const res = await get(app, '/api/notes', EVIL);
    expect(res.headers.get('access-control-allow-origin')).toBe('*');
    expect(res.headers.get('vary')).toBeNull();
  });

  it('a function decides; it never sees a value that is not an origin', async () => {
    const seen: string[] = [];
    const app = makeApp({
      origin: (o) => {
        seen.push(o);
        return o.endsWith('.app.example');
      },
    });
    expect((await get(app, '/api/notes', 'https://x.app.example')).headers.get('access-control-allow-origin')).toBe('https://x.app.example');
    expect((await get(app, '/api/notes', 'https://app.example.evil')).headers.get('access-control-allow-origin')).toBeNull();
    expect((await get(app, '/api/notes', 'https://a b.app.example')).headers.get('access-control-allow-origin')).toBeNull();
    expect((await get(app, '/api/notes', 'https://x.app.example/path')).headers.get('access-control-allow-origin')).toBeNull();
    expect(seen).toEqual(['https://x.app.example', 'https://app.example.evil']);
  });

  it('matches listed origins exactly (property)', async () => {
    const app = makeApp({ origin: [APP, 'http://localhost:3000'] });
    await fc.assert(
      fc.asyncProperty(
        fc.oneof(fc.webUrl(), fc.string({ maxLength: 40 }), fc.constantFrom(APP, `${APP}.evil`, 'HTTPS://APP.EXAMPLE', `${APP}:443`, 'null')),
        async (origin) => {
          let res: Response;
          try {
            res = await get(app, '/api/notes', origin);
          } catch {
            return;
          }
          const allow = res.headers.get('access-control-allow-origin');
          if (origin === APP || origin === 'http://localhost:3000') expect(allow).toBe(origin);
          else expect(allow).toBeNull();
        },
      ),
      { numRuns: 200 },
    );
  });

  it('costs nothing outside its scope', async () => {
    const app = makeApp({ origin: APP });
    const res = await get(app, '/other', APP);
    expect(res.headers.get('access-control-allow-origin')).toBeNull();
    expect(res.headers.get('vary')).toBeNull();
  });
});

describe('cors > registration', () => {
  it('refuses "*" with credentials, and malformed options', () => {
    expect(() => cors({ credentials: true })).toThrow(/cannot be used with credentials/);
    expect(() => cors({ origin: '*', credentials: true })).toThrow(/credentials/);
    expect(() => cors({ origin: [APP, '*'] })).toThrow(/alone/);
    expect(() => cors({ origin: 'app.example' })).toThrow(/not an origin/);
    expect(() => cors({ origin: `${APP}/path` })).toThrow(/not an origin/);
    expect(() => cors({ methods: ['GET', 'PO ST'] })).toThrow(/not a valid name/);
    expect(() => cors({ headers: ['x-ok', 'x-bad\r\nInjected: 1'] })).toThrow(/not a valid name/);
    expect(() => cors({ maxAge: -1 })).toThrow(/maxAge/);
  });
});
