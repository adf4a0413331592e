// Hostile requests against the probe app (test/conformance/probe): every defect found by hostile probes,
// over real HTTP, on each runtime it can occur on. Requests go over raw TCP, so what reaches the
// server is exactly what is written here (fetch would normalise paths and refuse odd Hosts).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RawResponse, rawRequest, slowClient } from './raw.ts';
import { CONFORMANCE_RUNTIMES, isNode, type Running, type Runtime, start } from './servers.ts';

const PROBE = 'test/conformance/probe';
const TRUSTED_PROXIES = '127.0.0.1,10.0.0.0/8';
/** The second server of each runtime: trusted proxies, trailing-slash redirects, request events, a 1 s header timeout. */
const VARIANT = { PROBE_TRUST_PROXY: TRUSTED_PROXIES, PROBE_TRAILING_SLASH: 'redirect', PROBE_OBSERVE: '1', PROBE_HEADERS_TIMEOUT_MS: '1000' };

const plain = new Map<Runtime, Running>();
const variant = new Map<Runtime, Running>();
const startErrors: string[] = [];

// Every server starts once, all in parallel: ten processes come up in about two seconds.
beforeAll(async () => {
  const up = (runtime: Runtime, into: Map<Runtime, Running>, env: Record<string, string>) =>
    start(runtime, PROBE, '/', env, env).then(
      (server) => void into.set(runtime, server),
      (error: unknown) => void startErrors.push(String(error)),
    );
  await Promise.all(CONFORMANCE_RUNTIMES.flatMap((runtime) => [up(runtime, plain, {}), up(runtime, variant, VARIANT)]));
}, 90_000);

afterAll(async () => {
  await Promise.all([...plain.values(), ...variant.values()].map((server) => server.stop()));
});

function server(from: Map<Runtime, Running>, runtime: Runtime): Running {
  const found = from.get(runtime);
  if (!found) throw new Error(`the ${runtime} probe did not start:\n${startErrors.join('\n')}`);
  return found;
}

/** One raw request: `line` is "METHOD target"; Host is the server's unless `headers` names one. */
function send(to: Running, line: string, headers: Record<string, string> = {}, body?: string): Promise<RawResponse> {
  const named = Object.keys(headers).some((name) => name.toLowerCase() === 'host');
  const lines = [
    `${line} HTTP/1.1`,
    ...(named ? [] : [`Host: ${new URL(to.url).host}`]),
    ...Object.entries(headers).map(([name, value]) => `${name}: ${value}`),
  ];
  return rawRequest(to.url, lines.join('\r\n'), { body });
}

/** A Content-Length, when sent, is the body's size. */
function expectHonestLength(res: RawResponse): void {
  if (res.headers['content-length'] !== undefined) expect(Number(res.headers['content-length'])).toBe(Buffer.byteLength(res.body));
}

/** Rove's own 4xx/5xx: problem+json; a 5xx says nothing but its status. */
function expectProblem(res: RawResponse, status: number): Record<string, unknown> {
  expect(res.status).toBe(status);
  expect(res.headers['content-type']).toBe('application/problem+json');
  expect(res.body).not.toMatch(/stack|\n\s+at |file:\/\/|node_modules|\/work\//);
  const problem = JSON.parse(res.body) as Record<string, unknown>;
  if (status >= 500) expect(problem).toEqual({ type: 'about:blank', title: 'Internal Server Error', status });
  else expect(problem).toMatchObject({ type: 'about:blank', status });
  expectHonestLength(res);
  return problem;
}

/** A c.json() answer: the body first (what each test is about), then the headers every runtime must agree on. */
function json(res: RawResponse, status = 200): any {
  expect(res.status).toBe(status);
  const value: unknown = JSON.parse(res.body);
  expect.soft(res.headers['content-type']).toBe('application/json');
  expect.soft(res.headers['content-length']).toBe(String(Buffer.byteLength(res.body)));
  return value;
}

/** A redirect target a browser would take off-site (`//host` or `/\host`). */
const OFF_SITE = /^\/[/\\]/;

describe.each(CONFORMANCE_RUNTIMES)('hostile requests on %s', (runtime) => {
  const probe = () => server(plain, runtime);
  const trusting = () => server(variant, runtime);

  describe('a prefix middleware cannot be bypassed', () => {
    it('runs the guard for /admin/report and leaves /blog/report alone', async () => {
      expectProblem(await send(probe(), 'GET /admin/report'), 401);
      expect(json(await send(probe(), 'GET /blog/report'))).toEqual({ section: 'blog' });
    });

    it('runs the guard when the prefix is percent-encoded: /adm%69n/report', async () => {
      expectProblem(await send(probe(), 'GET /adm%69n/report'), 401);
    });

    it('runs the guard for unmatched paths under the prefix, however encoded', async () => {
      expectProblem(await send(probe(), 'GET /admin/nothing'), 401);
      expectProblem(await send(probe(), 'GET /adm%69n/nothing'), 401);
    });

    it("runs /files/secret's guard before the /files/* route when a segment is encoded: /files/%73ecret/x", async () => {
      expectProblem(await send(probe(), 'GET /files/secret/x'), 401);
      expectProblem(await send(probe(), 'GET /files/%73ecret/x'), 401);
      expect(json(await send(probe(), 'GET /files/public/x'))).toEqual({ rest: 'public/x' });
    });

    it('answers 400 to an encoded slash: /files/secret%2Fx', async () => {
      expectProblem(await send(probe(), 'GET /files/secret%2Fx'), 400);
      expectProblem(await send(probe(), 'GET /files/secret%2fx'), 400);
    });

    it('holds inside a sub-app mounted with app.route', async () => {
      expect(json(await send(probe(), 'GET /sub/blog/report'))).toEqual({ section: 'blog' });
      expectProblem(await send(probe(), 'GET /sub/adm%69n/report'), 401);
      expectProblem(await send(probe(), 'GET /s%75b/admin/report'), 401);
      expectProblem(await send(probe(), 'GET /sub/files/%73ecret/x'), 401);
      expectProblem(await send(probe(), 'GET /sub/files/secret%2Fx'), 400);
    });

    it('resolves dot segments and backslashes as WHATWG URL does, before matching', async () => {
      for (const target of ['/x/../admin/report', '/x/%2e%2e/admin/report', '/x/%2E%2E/admin/report', '/x\\..\\admin/report', '/admin/./report']) {
        expectProblem(await send(probe(), `GET ${target}`), 401);
      }
    });

    it('answers 400 to an empty segment that is not the last: //admin/report, /admin//report', async () => {
      expectProblem(await send(probe(), 'GET //admin/report'), 400);
      expectProblem(await send(probe(), 'GET /admin//report'), 400);
    });
  });

  describe('the Host header never picks the route', () => {
    const hostile = ['x/inner/panel?', 'a@b', 'a#b', 'a\\b', 'a b', 'a\tb', ''];

    it('a normal Host, with a port or an IPv6 address, still works', async () => {
      for (const host of ['127.0.0.1:1234', 'example.com', '[::1]:80']) {
        const res = await send(probe(), 'GET /public/page', { Host: host });
        expect(res.status).toBe(200);
        expect(res.body).toBe('public page');
      }
    });

    if (runtime === 'workerd') {
      // Runtime limit (docs/deploy.md): workerd refuses these Hosts itself before the worker runs,
      // with a plain 500 (400 for an empty Host). On Cloudflare the edge validates Host first.
      it('workerd refuses a Host with / ? # @ \\ or whitespace before the worker runs', async () => {
        for (const host of hostile) {
          const res = await send(probe(), 'GET /public/page', { Host: host });
          expect(res.status, `Host: ${JSON.stringify(host)}`).toBe(host === '' ? 400 : 500);
          expect(res.body).not.toMatch(/panel|page|where/);
        }
      });
    } else {
      it('a Host with / ? # @ \\ or whitespace, or an empty one, answers 400 problem+json', async () => {
        for (const host of hostile) {
          const res = await send(probe(), 'GET /public/page', { Host: host });
          expect(res.body, `Host: ${JSON.stringify(host)}`).not.toContain('inner panel');
          expect(res.status, `Host: ${JSON.stringify(host)}`).toBe(400);
          expectProblem(res, 400);
        }
      });

      it('Host: a@b does not shift the path: GET /x/where never runs /where', async () => {
        const res = await send(probe(), 'GET /x/where', { Host: 'a@b' });
        expect(res.body).not.toBe('/where');
        expectProblem(res, 400);
      });
    }
  });

  describe('no runtime error page, ever', () => {
    it('a handler that returns nothing answers a bare problem+json 500', async () => {
      expectProblem(await send(probe(), 'GET /nothing'), 500);
    });

    it('a CR/LF from the query in a header value answers a bare 500 and injects no header', async () => {
      const res = await send(probe(), 'GET /echo-header?v=a%0D%0AX-Injected:%201');
      expect(res.headers['x-injected']).toBeUndefined();
      expect(res.headers['x-echo']).toBeUndefined();
      expectProblem(res, 500);
    });

    it("a CR/LF in a returned Response's header goes through the app's onError", async () => {
      const res = await send(probe(), 'GET /err/raw-header?v=a%0D%0Ab');
      expect(res.status).toBe(500);
      expect(res.body).toBe('{"onError":true}');
    });

    it('a browser asking for HTML gets no stack or source either', async () => {
      const res = await send(probe(), 'GET /nothing', { Accept: 'text/html' });
      expect(res.status).toBe(500);
      expect(Buffer.byteLength(res.body)).toBeLessThan(1024);
      expect(res.body).not.toMatch(/must return a Response|\n\s+at |\.ts\b|node_modules/);
    });
  });

  describe('validation checks the content type first', () => {
    const body = '{"name":"ann"}';

    it("validate('json') answers 415 to a text/plain body (a form or fetch needs no preflight for it)", async () => {
      expectProblem(await send(probe(), 'POST /v/json', { 'Content-Type': 'text/plain' }, body), 415);
    });

    it("validate('json') answers 415 to a body without a content type", async () => {
      expectProblem(await send(probe(), 'POST /v/json', {}, body), 415);
    });

    it("validate('json') accepts application/json, with or without a charset", async () => {
      expect(json(await send(probe(), 'POST /v/json', { 'Content-Type': 'application/json' }, body))).toEqual({ name: 'ann' });
      expect(json(await send(probe(), 'POST /v/json', { 'Content-Type': 'application/json; charset=utf-8' }, body))).toEqual({ name: 'ann' });
    });

    it("validate('form') answers 415 to JSON and text/plain, and accepts a urlencoded form", async () => {
      expectProblem(await send(probe(), 'POST /v/form', { 'Content-Type': 'application/json' }, body), 415);
      expectProblem(await send(probe(), 'POST /v/form', { 'Content-Type': 'text/plain' }, 'name=ann'), 415);
      expect(json(await send(probe(), 'POST /v/form', { 'Content-Type': 'application/x-www-form-urlencoded' }, 'name=ann'))).toEqual({ name: 'ann' });
    });
  });

  describe('the client address', () => {
    const spoofed = { 'X-Forwarded-For': '203.0.113.9', Forwarded: 'for=203.0.113.10' };

    if (runtime === 'workerd') {
      it('c.req.ip is cf-connecting-ip on Workers, whatever X-Forwarded-For and Forwarded say', async () => {
        expect(json(await send(probe(), 'GET /ip', { ...spoofed, 'CF-Connecting-IP': '198.51.100.7' }))).toEqual({ ip: '198.51.100.7' });
      });
    } else {
      it('c.req.ip is the socket address, whatever X-Forwarded-For, Forwarded and CF-Connecting-IP say', async () => {
        expect(json(await send(probe(), 'GET /ip', { ...spoofed, 'CF-Connecting-IP': '198.51.100.7' }))).toEqual({ ip: '127.0.0.1' });
      });
    }

    // The variant trusts 127.0.0.1 and 10.0.0.0/8. On Workers the "socket" is cf-connecting-ip, sent here as a trusted hop.
    const socket = runtime === 'workerd' ? '10.9.9.9' : '127.0.0.1';
    const via = (headers: Record<string, string>) => (runtime === 'workerd' ? { 'CF-Connecting-IP': socket, ...headers } : headers);
    const cases: [string, Record<string, string>, string][] = [
      ['no forwarding header: the socket', {}, socket],
      ['one hop', { 'X-Forwarded-For': '203.0.113.5' }, '203.0.113.5'],
      ['through a trusted 10.x proxy', { 'X-Forwarded-For': '198.51.100.2, 10.1.2.3' }, '198.51.100.2'],
      ['a forged leftmost entry is not believed', { 'X-Forwarded-For': '203.0.113.5, 198.51.100.2' }, '198.51.100.2'],
      // X-Forwarded-For is the header read by default: a client's own Forwarded, passed through by a
      // proxy that appends X-Forwarded-For, cannot name the client.
      [
        'a client-sent Forwarded does not spoof the X-Forwarded-For the proxy appended',
        { Forwarded: 'for=6.6.6.6', 'X-Forwarded-For': '203.0.113.5' },
        '203.0.113.5',
      ],
      ['Forwarded alone is not read unless chosen', { Forwarded: 'for=192.0.2.60;proto=http;by=203.0.113.43, for=10.0.0.1' }, socket],
      ['an entry that is not an address stops the walk', { 'X-Forwarded-For': 'unknown' }, socket],
      ['when every hop is trusted, the furthest one', { 'X-Forwarded-For': '10.0.0.1' }, '10.0.0.1'],
    ];
    it.each(cases)('with trustProxy (a list with a CIDR): %s', async (_, headers, ip) => {
      expect(json(await send(trusting(), 'GET /ip', via(headers)))).toEqual({ ip });
    });

    it('request events report the same address as c.req.ip', async () => {
      const { ip } = json(await send(trusting(), 'GET /ip', via({ 'X-Forwarded-For': '203.0.113.77' })));
      expect(ip).toBe('203.0.113.77');
      expect(json(await send(trusting(), 'GET /last'))).toEqual({ path: '/ip', status: 200, clientAddress: ip });
    });
  });

  // Deno has no knob to cut a slow client (the README says so); Deno Deploy and Workers sit behind their platform's edge.
  if (isNode(runtime) || runtime === 'bun') {
    describe('slow clients', () => {
      const half = 'GET / HTTP/1.1\r\nHost: x\r\nX-Half: ';

      if (isNode(runtime)) {
        it('a client that sends half its headers is cut off after headersTimeoutMs (1 s here)', async () => {
          const { cutOff, afterMs, answer } = await slowClient(trusting().url, half, 4000);
          expect(cutOff).toBe(true);
          expect(afterMs).toBeGreaterThanOrEqual(900);
          expect(afterMs).toBeLessThan(4000);
          if (answer !== '') expect(answer).toMatch(/^HTTP\/1\.1 408 /);
        });
      } else {
        // Runtime limit: Bun (uWebSockets) hangs up on incomplete headers after a fixed 10 s, checked every 4 s
        // (12 s measured, even while header lines keep coming); idleTimeout does not apply before the headers
        // end, so headersTimeoutMs cannot shorten it.
        it('Bun cuts off a client that sends half its headers after its own ~10 s', async () => {
          const { cutOff, afterMs } = await slowClient(trusting().url, half, 15_000);
          expect(cutOff).toBe(true);
          expect(afterMs).toBeLessThan(15_000);
        }, 20_000);
      }
    });
  }

  describe('keys with prototype names stay own properties', () => {
    // Entries, not object literals: `{ __proto__: true }` in source sets a prototype instead of a key.
    const OWN_ALL = [
      ['__proto__', true],
      ['constructor', true],
      ['toString', true],
      ['hasOwnProperty', false],
    ];

    it('c.req.form() keeps __proto__, constructor and toString as plain fields', async () => {
      const res = await send(
        probe(),
        'POST /form-keys',
        { 'Content-Type': 'application/x-www-form-urlencoded' },
        '__proto__=x&constructor=c&toString=t&a=1&a=2&b=3',
      );
      const form = json(res);
      expect(form.keys).toEqual(['__proto__', 'constructor', 'toString', 'a', 'b']);
      expect(Object.entries(form.own)).toEqual(OWN_ALL);
      expect(['Object.prototype', 'null']).toContain(form.prototype);
      expect(Object.entries(form.values)).toEqual([
        ['__proto__', 'x'],
        ['constructor', 'c'],
        ['toString', 't'],
        ['a', ['1', '2']],
        ['b', '3'],
      ]);
    });

    it('a multipart file field named __proto__ does not replace the prototype', async () => {
      const body = [
        '--b',
        'Content-Disposition: form-data; name="__proto__"; filename="p.txt"',
        'Content-Type: text/plain',
        '',
        'file',
        '--b',
        'Content-Disposition: form-data; name="a"',
        '',
        '1',
        '--b--',
        '',
      ].join('\r\n');
      const form = json(await send(probe(), 'POST /form-keys', { 'Content-Type': 'multipart/form-data; boundary=b' }, body));
      expect(form.keys).toEqual(['__proto__', 'a']);
      expect(['Object.prototype', 'null']).toContain(form.prototype);
      expect(Object.entries(form.values)).toEqual([
        ['__proto__', '<file>'],
        ['a', '1'],
      ]);
    });

    it('c.req.query() keeps every key, whatever its name', async () => {
      const query = json(await send(probe(), 'GET /query-keys?__proto__=x&constructor=c&toString=t&a=1'));
      expect(query.keys).toEqual(['__proto__', 'constructor', 'toString', 'a']);
      expect(Object.entries(query.own)).toEqual(OWN_ALL);
      expect(Object.entries(query.values)).toEqual([
        ['__proto__', 'x'],
        ['constructor', 'c'],
        ['toString', 't'],
        ['a', '1'],
      ]);
      expect(query.one).toEqual({ constructor: 'c', hasOwnProperty: null });
    });
  });

  describe('setCookie refuses attribute injection', () => {
    it('sets a cookie with a plain path', async () => {
      const res = await send(probe(), 'GET /cookie?path=/app');
      expect(res.status).toBe(200);
      expect(res.setCookie).toEqual(['probe=1; Path=/app']);
    });

    it('a path or domain with ";" answers 500 and sets no cookie', async () => {
      for (const query of ['path=/;%20Domain=evil.example', 'domain=example.com;%20SameSite=None']) {
        const res = await send(probe(), `GET /cookie?${query}`);
        expect(res.setCookie, query).toEqual([]);
        expectProblem(res, 500);
      }
    });

    it('a path with CR/LF answers 500 and sets no cookie', async () => {
      const res = await send(probe(), 'GET /cookie?path=/a%0D%0AX-Injected:%201');
      expect(res.setCookie).toEqual([]);
      expect(res.headers['x-injected']).toBeUndefined();
      expectProblem(res, 500);
    });
  });

  describe('the trailing-slash redirect is checked like c.redirect', () => {
    it('redirects /redirect-me/ to /redirect-me (redirectTrailingSlash)', async () => {
      const res = await send(trusting(), 'GET /redirect-me/');
      expect(res.status).toBe(301);
      expect(res.headers.location).toBe('/redirect-me');
    });

    it('never redirects off-site: /\\evil.example/ answers 400', async () => {
      const res = await send(trusting(), 'GET /\\evil.example/');
      expect(res.headers.location ?? '').not.toMatch(OFF_SITE);
      expectProblem(res, 400);
    });

    it('never redirects off-site: /%5Cevil.example/ keeps its encoding if it redirects', async () => {
      const res = await send(trusting(), 'GET /%5Cevil.example/');
      expect(res.headers.location ?? '').not.toMatch(OFF_SITE);
    });
  });

  describe('the router', () => {
    it('/v1/:version?/:platform? matches /v1, /v1/a and /v1/a/b', async () => {
      expect(json(await send(probe(), 'GET /v1'))).toEqual({ version: null, platform: null });
      expect(json(await send(probe(), 'GET /v1/a'))).toEqual({ version: 'a', platform: null });
      expect(json(await send(probe(), 'GET /v1/a/b'))).toEqual({ version: 'a', platform: 'b' });
    });

    it('/files2/:name{.*} matches an empty last segment', async () => {
      expect(json(await send(probe(), 'GET /files2/'))).toEqual({ name: '' });
      expect(json(await send(probe(), 'GET /files2/a.txt'))).toEqual({ name: 'a.txt' });
    });

    it("c.req.param() holds only the route's own params: /api/:kind/:constructor? on /api/x", async () => {
      expect(json(await send(probe(), 'GET /api/x'))).toEqual({ kind: 'x', constructor: null, keys: ['kind'] });
      expect(json(await send(probe(), 'GET /api/x/y'))).toEqual({ kind: 'x', constructor: 'y', keys: ['kind', 'constructor'] });
    });

    // Only Deno passes a lower-case method through: Node answers 400, Bun closes the connection, workerd answers 501.
    if (runtime === 'deno' || runtime === 'deno-deploy') {
      it('a lower-case method matches its route', async () => {
        expect((await send(probe(), 'purge /m')).body).toBe('purged');
        expect((await send(probe(), 'get /where')).body).toBe('/where');
      });
    }
  });

  describe('HTTP parity', () => {
    it("HEAD carries the GET's Content-Length, or none, and no body", async () => {
      for (const path of ['/', '/text', '/nowhere']) {
        const get = await send(probe(), `GET ${path}`);
        const head = await send(probe(), `HEAD ${path}`);
        expect(head.status, path).toBe(get.status);
        expect(head.headers['content-type'], path).toBe(get.headers['content-type']);
        expect(head.body, path).toBe('');
        if (head.headers['content-length'] !== undefined) expect(head.headers['content-length'], path).toBe(String(Buffer.byteLength(get.body)));
      }
    });

    if (runtime === 'workerd') {
      // Runtime limit (docs/deploy.md): workerd's URL parser refuses `*` with a plain 500 before the worker runs.
      it('OPTIONS * is refused by workerd itself (500)', async () => {
        expect((await send(probe(), 'OPTIONS *')).status).toBe(500);
      });
    } else if (runtime === 'bun') {
      it('OPTIONS * answers 400 (Bun refuses it before any code runs)', async () => {
        expect((await send(probe(), 'OPTIONS *')).status).toBe(400);
      });
    } else {
      it('OPTIONS * answers 400 problem+json', async () => {
        const res = await send(probe(), 'OPTIONS *');
        expectProblem(res, 400);
        expect(res.headers.allow).toBeUndefined();
      });
    }

    it('c.json() answers exactly application/json, with its Content-Length', async () => {
      const res = await send(probe(), 'GET /');
      expect(res.body).toBe('{"probe":true}');
      expect(res.headers['content-type']).toBe('application/json');
      expect(res.headers['content-length']).toBe('14');
    });

    it('what c.json() returns is a real Response: instanceof Response, and clone().text() works', async () => {
      expect(json(await send(probe(), 'GET /real'))).toEqual({ instance: true, text: '{"a":1}' });
    });

    it('405 lists the allowed methods in Allow', async () => {
      const res = await send(probe(), 'PUT /ip', { 'Content-Length': '0' });
      expect(res.headers.allow).toBe('GET, HEAD, OPTIONS');
      expectProblem(res, 405);
    });
  });
});

// Last, because today a header value Deno cannot send takes the whole Deno process down (Deno 2.9.6 panics in
// http_h1/write.rs: "invalid response header value"), under `deno run` and `deno serve` alike.
describe.each(CONFORMANCE_RUNTIMES)('a header value the runtime cannot send, on %s', (runtime) => {
  // Node and Deno cannot send a control character in a header value. Bun and workerd can; whether the core
  // refuses it everywhere anyway is left open (docs/deploy.md, what the adapters guard), so there either answer is right.
  const refused = runtime !== 'bun' && runtime !== 'workerd';

  it(
    refused ? "answers onError's 500, and request events report 500" : "is sent as is or answers onError's 500, and request events report what was sent",
    async () => {
      const to = server(variant, runtime);
      const res = await send(to, 'GET /err/raw-header?v=a%01b');
      if (refused || res.status !== 200) {
        expect(res.status).toBe(500);
        expect(res.body).toBe('{"onError":true}');
      } else {
        expect(res.headers['x-echo']).toBe('a\x01b');
      }
      expect(json(await send(to, 'GET /last'))).toMatchObject({ path: '/err/raw-header', status: res.status });
    },
  );

  it(
    refused ? 'set through c.header(), answers a bare problem+json 500' : 'set through c.header(), is sent as is or answers a bare problem+json 500',
    async () => {
      const res = await send(server(plain, runtime), 'GET /echo-header?v=a%01b');
      if (refused || res.status !== 200) expectProblem(res, 500);
      else expect(res.headers['x-echo']).toBe('a\x01b');
    },
  );

  it('the server keeps serving afterwards', async () => {
    for (const to of [server(plain, runtime), server(variant, runtime)]) {
      expect(to.child.exited).toBe(false);
      expect(json(await send(to, 'GET /'))).toEqual({ probe: true });
    }
  });
});
