// examples/notes: what its README promises, over real HTTP, on every runtime. The worker
// runs under Miniflare (its [assets] and KV namespace come from examples/notes/wrangler.toml).
import { statSync } from 'node:fs';
import { get as httpGet, type IncomingHttpHeaders } from 'node:http';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ROOT } from '../../dev/proc.ts';
import { DEV_CONFIG } from '../../examples/notes/config.ts';
import { validateOpenAPI } from '../contract/openapi-check.ts';
import { client, cspDirectives, hs256, Jar, login } from '../notes/client.ts';
import { rawRequest } from './raw.ts';
import { CONFORMANCE_RUNTIMES, isNode, type Running, start } from './servers.ts';

const CSS_SIZE = statSync(join(ROOT, 'examples/notes/public/app.css')).size;

/** GET with node:http, which leaves the body as sent (fetch would decompress it). */
function binaryGet(base: string, path: string, headers: Record<string, string>): Promise<{ status: number; headers: IncomingHttpHeaders; body: Buffer }> {
  return new Promise((resolve, reject) => {
    httpGet(base + path, { headers, agent: false }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }));
      res.on('error', reject);
    }).on('error', reject);
  });
}
const now = () => Math.floor(Date.now() / 1000);

async function expectProblem(res: Response, status: number, mention?: RegExp): Promise<Record<string, unknown>> {
  expect(res.status).toBe(status);
  expect(res.headers.get('content-type')).toMatch(/^application\/problem\+json/);
  const body = (await res.json()) as Record<string, unknown>;
  if (mention) expect(JSON.stringify(body)).toMatch(mention);
  return body;
}

describe.each(CONFORMANCE_RUNTIMES)('examples/notes on %s', (runtime) => {
  let server: Running;
  let url: string;
  beforeAll(async () => {
    server = await start(runtime, 'examples/notes', '/');
    url = server.url;
  }, 90_000);
  afterAll(async () => {
    await server?.stop();
  });

  describe('GET /', () => {
    it('is an HTML page from the views, with the stylesheet and a nonced inline script', async () => {
      const res = await fetch(`${url}/`);
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toMatch(/^text\/html/);
      const html = await res.text();
      expect(html).toMatch(/^<!DOCTYPE html>/);
      expect(html).toContain('<link rel="stylesheet" href="/static/app.css">');
      // The layout's script gets the user through the json filter: none yet.
      expect(html).toContain('document.documentElement.dataset.user = "";');
      const nonce = /<script nonce="([^"]+)">/.exec(html)?.[1];
      expect(nonce).toBeTruthy();
      const csp = cspDirectives(res.headers.get('content-security-policy'));
      const scripts = csp.get('script-src') ?? [];
      expect(scripts).toContain(`'nonce-${nonce}'`);
      // Only the nonce lets a script run: no inline, no host or scheme sources.
      for (const source of scripts) expect(source === `'nonce-${nonce}'` || source === "'strict-dynamic'").toBe(true);
    });

    it('has a new nonce on every response', async () => {
      const nonces = new Set<string>();
      for (let i = 0; i < 3; i++) {
        const res = await fetch(`${url}/`);
        const nonce = /<script nonce="([^"]+)">/.exec(await res.text())?.[1];
        expect(res.headers.get('content-security-policy')).toContain(`'nonce-${nonce}'`);
        nonces.add(nonce!);
      }
      expect(nonces.size).toBe(3);
    });

    it('starts no session for an anonymous visit (no Set-Cookie)', async () => {
      const res = await fetch(`${url}/`);
      await res.arrayBuffer();
      expect(res.headers.getSetCookie()).toEqual([]);
    });

    it('carries the security headers and a request id', async () => {
      const res = await fetch(`${url}/`);
      await res.arrayBuffer();
      expect(res.headers.get('x-content-type-options')).toBe('nosniff');
      expect(res.headers.get('referrer-policy')).toBeTruthy();
      const frames = res.headers.get('x-frame-options') ?? '';
      const ancestors = cspDirectives(res.headers.get('content-security-policy')).get('frame-ancestors');
      expect(/^(deny|sameorigin)$/i.test(frames) || ancestors !== undefined).toBe(true);
      expect(res.headers.get('x-request-id')).toMatch(/^[\w.:-]{8,}$/);
    });
  });

  describe('GET /static/app.css', () => {
    let tag: string;
    it('answers text/css with an ETag', async () => {
      const res = await fetch(`${url}/static/app.css`);
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toMatch(/^text\/css/);
      tag = res.headers.get('etag')!;
      expect(tag).toMatch(/^(W\/)?"[^"]+"$/);
      expect((await res.text()).length).toBe(CSS_SIZE);
    });

    it('answers 304 with no body to If-None-Match', async () => {
      const res = await fetch(`${url}/static/app.css`, { headers: { 'if-none-match': tag } });
      expect(res.status).toBe(304);
      expect(await res.text()).toBe('');
    });

    it('answers a Range with 206 and Content-Range (on Workers: as the platform does)', async () => {
      const res = await fetch(`${url}/static/app.css`, { headers: { range: 'bytes=0-9' } });
      const body = await res.arrayBuffer();
      // Static Assets decide on Workers; Miniflare 4 answers the whole file.
      if (runtime === 'workerd' && res.status === 200) return expect(body.byteLength).toBe(CSS_SIZE);
      expect(res.status).toBe(206);
      expect(res.headers.get('content-range')).toBe(`bytes 0-9/${CSS_SIZE}`);
      expect(body.byteLength).toBe(10);
    });

    it('answers HEAD with the same headers and no body', async () => {
      // Raw requests without Accept-Encoding: the same representation both times.
      const get = await rawRequest(url, 'GET /static/app.css HTTP/1.1\r\nHost: 127.0.0.1');
      const head = await rawRequest(url, 'HEAD /static/app.css HTTP/1.1\r\nHost: 127.0.0.1');
      expect(get.body.length).toBe(CSS_SIZE);
      expect(head.status).toBe(200);
      expect(head.body).toBe('');
      // workerd sends no Content-Length on a HEAD answer (of its own, as of any worker's): the platform's framing.
      const names = ['content-type', 'etag', 'last-modified', 'cache-control', ...(runtime === 'workerd' ? [] : ['content-length'])];
      for (const name of names) expect(head.headers[name], name).toBe(get.headers[name]);
    });

    it.each(['/static/missing.css', '/static/../package.json', '/static/%2e%2e/package.json', '/static/..%2fpackage.json', '/static/%2e%2e%2fpackage.json'])(
      '%s is refused, never the file',
      async (path) => {
        const res = await rawRequest(url, `GET ${path} HTTP/1.1\r\nHost: 127.0.0.1`);
        expect([400, 404]).toContain(res.status);
        expect(res.body).not.toContain('"devDependencies"');
      },
    );
  });

  describe('login, session and logout', () => {
    it('GET /login is a form with a hidden _csrf field', async () => {
      const res = await fetch(`${url}/login`);
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toMatch(/^text\/html/);
      const html = await res.text();
      expect(html).toMatch(/<form method="post" action="\/login"/);
      expect(html).toMatch(/<input type="hidden" name="_csrf" value="[^"]+">/);
    });

    it('POST /login answers 303 to / with a new HttpOnly, SameSite=Lax session cookie', async () => {
      const c = client(url);
      const token = await c.token('/login');
      const before = c.jar.clone();
      const res = await c.post('/login', { name: 'ada', _csrf: token });
      expect(res.status).toBe(303);
      expect(res.headers.get('location')).toBe('/');
      const set = res.headers.getSetCookie();
      expect(set.length).toBeGreaterThan(0);
      for (const line of set.filter((l) => !/max-age=0/i.test(l))) {
        expect(line).toMatch(/;\s*HttpOnly/i);
        expect(line).toMatch(/;\s*SameSite=Lax/i);
        const [pair] = line.split(';');
        const [name] = pair!.split('=');
        // The cookie after login is not any cookie the client had before it.
        expect(before.cookies.get(name!.trim())).not.toBe(pair!.slice(pair!.indexOf('=') + 1));
      }
      const me = await c.get('/me');
      expect(me.status).toBe(200);
      expect(await me.json()).toEqual({ name: 'ada' });
    });

    it('POST /login without _csrf is a 403 problem naming CSRF', async () => {
      const c = client(url);
      await c.token('/login');
      await expectProblem(await c.post('/login', { name: 'ada' }), 403, /csrf/i);
    });

    it('POST /login from another origin is a 403 problem naming CSRF', async () => {
      const c = client(url);
      const token = await c.token('/login');
      await expectProblem(await c.post('/login', { name: 'ada', _csrf: token }, { origin: 'https://evil.example' }), 403, /csrf/i);
    });

    it('GET /me without a session is 401', async () => {
      const res = await fetch(`${url}/me`);
      expect(res.status).toBe(401);
      await res.arrayBuffer();
    });

    it('POST /logout answers 303, and the old cookie no longer works', async () => {
      const c = await login(url, 'grace');
      const old = c.jar.clone();
      const token = await c.token('/');
      const res = await c.post('/logout', { _csrf: token });
      expect(res.status).toBe(303);
      await res.arrayBuffer();
      const replay = await fetch(`${url}/me`, { headers: { cookie: old.header() } });
      expect(replay.status).toBe(401);
      await replay.arrayBuffer();
    });
  });

  describe('/api/notes', () => {
    it('GET with the session is a JSON array with an ETag, and 304 to If-None-Match', async () => {
      const c = await login(url, 'linus');
      const res = await c.get('/api/notes');
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toMatch(/^application\/json/);
      expect(Array.isArray(await res.json())).toBe(true);
      const tag = res.headers.get('etag');
      expect(tag).toBeTruthy();
      const again = await c.get('/api/notes', { 'if-none-match': tag! });
      expect(again.status).toBe(304);
      expect(await again.text()).toBe('');
    });

    it('POST with a valid HS256 Bearer token adds the note (201)', async () => {
      const jwt = await hs256(DEV_CONFIG.jwtSecret, { sub: 'barbara', exp: now() + 300 });
      const res = await fetch(`${url}/api/notes`, {
        method: 'POST',
        headers: { authorization: `Bearer ${jwt}`, 'content-type': 'application/json' },
        body: JSON.stringify({ text: 'hi' }),
      });
      expect(res.status).toBe(201);
      expect(await res.json()).toMatchObject({ text: 'hi' });
      const c = await login(url, 'barbara');
      const list = (await (await c.get('/api/notes')).json()) as { text: string }[];
      expect(list.map((n) => n.text)).toContain('hi');
    });

    it.each([
      ['expired', async () => hs256(DEV_CONFIG.jwtSecret, { sub: 'barbara', exp: now() - 60 })],
      ['badly signed', async () => hs256('not-the-secret', { sub: 'barbara', exp: now() + 300 })],
      ['alg none', async () => `${Buffer.from('{"alg":"none"}').toString('base64url')}.${Buffer.from('{"sub":"barbara"}').toString('base64url')}.`],
    ])('POST with an %s token is 401 with WWW-Authenticate: Bearer', async (_, make) => {
      // A raw request on its own connection: a server may close a connection whose request body it
      // refused unread, and fetch could then pick that closed connection for the next test.
      const body = JSON.stringify({ text: 'hi' });
      const res = await rawRequest(
        url,
        `POST /api/notes HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer ${await make()}\r\nContent-Type: application/json`,
        { body },
      );
      expect(res.status).toBe(401);
      expect(res.headers['www-authenticate']).toMatch(/^Bearer/);
    });

    it('/api/openapi.json is the declared API: 200 JSON, the two operations, a valid OpenAPI 3.1 document', async () => {
      const res = await fetch(`${url}/api/openapi.json`);
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toMatch(/^application\/json/);
      const doc = (await res.json()) as { paths: Record<string, Record<string, unknown>> };
      expect(Object.entries(doc.paths).flatMap(([path, ops]) => Object.keys(ops).map((m) => `${m} ${path}`))).toEqual(['get /api/notes', 'post /api/notes']);
      expect(await validateOpenAPI(doc)).toEqual([]);
    });

    it('a preflight from the allowed origin is 204 with the CORS answer', async () => {
      const res = await fetch(`${url}/api/notes`, {
        method: 'OPTIONS',
        headers: { origin: DEV_CONFIG.allowedOrigin, 'access-control-request-method': 'POST', 'access-control-request-headers': 'content-type, authorization' },
      });
      expect(res.status).toBe(204);
      expect(res.headers.get('access-control-allow-origin')).toBe(DEV_CONFIG.allowedOrigin);
      expect(res.headers.get('access-control-allow-methods')?.toUpperCase()).toContain('POST');
      const allowed = (res.headers.get('access-control-allow-headers') ?? '').toLowerCase();
      expect(allowed).toContain('content-type');
      expect(allowed).toContain('authorization');
      expect(Number(res.headers.get('access-control-max-age'))).toBeGreaterThan(0);
      expect(res.headers.get('vary')?.toLowerCase()).toContain('origin');
    });

    it('a preflight from another origin gets no Access-Control-Allow-Origin', async () => {
      const res = await fetch(`${url}/api/notes`, {
        method: 'OPTIONS',
        headers: { origin: 'https://evil.example', 'access-control-request-method': 'POST', 'access-control-request-headers': 'content-type, authorization' },
      });
      await res.arrayBuffer();
      expect(res.headers.get('access-control-allow-origin')).toBeNull();
    });
  });

  describe('/admin', () => {
    const basic = (user: string, pass: string) => `Basic ${Buffer.from(`${user}:${pass}`).toString('base64')}`;
    it('asks for basic auth', async () => {
      const res = await fetch(`${url}/admin`);
      expect(res.status).toBe(401);
      expect(res.headers.get('www-authenticate')).toMatch(/^Basic realm=/);
      await res.arrayBuffer();
    });
    it('lets admin in with the password', async () => {
      const res = await fetch(`${url}/admin`, { headers: { authorization: basic('admin', DEV_CONFIG.adminPassword) } });
      expect(res.status).toBe(200);
      expect(await res.text()).toContain('<h1>Admin</h1>');
    });
    it('refuses a wrong password', async () => {
      const res = await fetch(`${url}/admin`, { headers: { authorization: basic('admin', 'wrong') } });
      expect(res.status).toBe(401);
      await res.arrayBuffer();
    });
  });

  describe.runIf(isNode(runtime) || runtime === 'deno' || runtime === 'bun')('compression', () => {
    it('GET / with Accept-Encoding: gzip is gzipped, with Vary: Accept-Encoding', async () => {
      const res = await binaryGet(url, '/', { 'accept-encoding': 'gzip' });
      expect(res.status).toBe(200);
      expect(res.headers['content-encoding']).toBe('gzip');
      expect(String(res.headers.vary).toLowerCase()).toContain('accept-encoding');
      const page = gunzipSync(res.body).toString('utf8');
      expect(page).toMatch(/^<!DOCTYPE html>/);
      expect(page).toContain('/static/app.css');
    });
  });

  describe('as an attacker', () => {
    it('a forged or tampered session cookie is no session (401), never a 500', async () => {
      const c = await login(url, 'mallory');
      const [name, value] = [...c.jar.cookies][0]!;
      const flipped = value.slice(0, -2) + (value.at(-2) === 'A' ? 'B' : 'A') + value.at(-1);
      for (const cookie of [`${name}=${flipped}`, `${name}=x`, `${name}=${'A'.repeat(5000)}`, `${name}=%00%0d%0a`, '__proto__=1']) {
        const res = await fetch(`${url}/me`, { headers: { cookie } });
        expect(res.status, cookie.slice(0, 40)).toBe(401);
        await res.arrayBuffer();
      }
    });

    it('a login name with control characters or markup is a 400, and no session', async () => {
      for (const name of ['a\r\nSet-Cookie: x=1', '<script>', '', 'x'.repeat(41)]) {
        const c = client(url);
        const token = await c.token('/login');
        const res = await c.post('/login', { name, _csrf: token });
        expect(res.status, JSON.stringify(name)).toBe(400);
        expect(res.headers.get('set-cookie') ?? '').not.toContain('x=1');
        await res.arrayBuffer();
      }
    });

    it('a token without sub is refused (401)', async () => {
      const noSub = await hs256(DEV_CONFIG.jwtSecret, { exp: now() + 300 });
      const res = await rawRequest(url, `POST /api/notes HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer ${noSub}\r\nContent-Type: application/json`, {
        body: '{"text":"x"}',
      });
      expect(res.status).toBe(401);
    });

    it('an API body that is not the note is a 400 problem', async () => {
      const jwt = await hs256(DEV_CONFIG.jwtSecret, { sub: 'eve', exp: now() + 300 });
      for (const body of ['{"text":""}', '{"text":123}', `{"text":"${'x'.repeat(501)}"}`, '{"__proto__":{"text":"hi"}}', 'not json', '[]']) {
        const res = await rawRequest(url, `POST /api/notes HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer ${jwt}\r\nContent-Type: application/json`, {
          body,
        });
        expect(res.status, body.slice(0, 30)).toBe(400);
        expect(res.headers['content-type']).toMatch(/^application\/problem\+json/);
      }
    });

    it("a note's markup is escaped on the page", async () => {
      const c = await login(url, 'trudy');
      const token = await c.token('/');
      const res = await c.post('/notes', { text: '<img src=x onerror=alert(1)>', _csrf: token });
      expect(res.status).toBe(303);
      const page = await (await c.get('/')).text();
      expect(page).toContain('&lt;img src=x onerror=alert(1)&gt;');
      expect(page).not.toContain('<img src=x');
    });
  });

  it('a fresh jar keeps nothing between tests', () => {
    expect(new Jar().header()).toBe('');
  });
});
