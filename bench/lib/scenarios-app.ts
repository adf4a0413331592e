// The app-layer scenarios (docs/benchmarks/methods.md): static files, a 304,
// a session read, a CORS preflight, security headers and a CSRF-checked form post.
// Each framework makes its own cookie, token and ETag, so the scenarios that need one
// take it from a setup request sent to the target first (Scenario.setup).
import { CORS_ORIGIN, CSS_SIZE, RATE_LIMIT, RATE_POLICY, RATE_WINDOW_S, SESSION_BODY, STATIC_CACHE_CONTROL } from '../shared/app-layer.ts';
import type { FrameworkId, RuntimeId } from './config.ts';
import type { ProbeResponse } from './http.ts';
import type { Expectation, RequestSpec, Scenario, Setup } from './scenarios.ts';

type Simple = (id: string, title: string, request: RequestSpec, expect: Expectation, more?: Partial<Omit<Scenario, 'id' | 'title' | 'request'>>) => Scenario;

// rove-fs is the file-routes variant of the bench app: it adds nothing to these middleware scenarios.
const WITH_RAW: readonly FrameworkId[] = ['rove', 'hono', 'raw'];
const NO_RAW: readonly FrameworkId[] = ['rove', 'hono'];
// On Workers, Static Assets answer in front of the worker (or through its ASSETS binding); the
// bench's bare workerd has no assets service, so the static rows run where there are files.
const FILE_RUNTIMES: readonly RuntimeId[] = ['node', 'deno', 'bun', 'deno-deploy'];

/** `name=value` of every Set-Cookie, joined as a Cookie header. */
function cookiesOf(res: ProbeResponse): string {
  const set = res.headers['set-cookie'];
  const lines = Array.isArray(set) ? set : set === undefined ? [] : [set];
  return lines.map((line) => line.split(';')[0]!.trim()).join('; ');
}

function header(res: ProbeResponse, name: string): string {
  const v = res.headers[name];
  return Array.isArray(v) ? v.join(', ') : (v ?? '');
}

const escapeRegExp = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

const withHeaders = (request: RequestSpec, headers: Record<string, string>): RequestSpec => ({ ...request, headers: { ...request.headers, ...headers } });

/** GET /static/app.css once; the load then asks again with If-None-Match set to its ETag. */
const ETAG_SETUP: Setup = {
  request: { method: 'GET', path: '/static/app.css' },
  apply: (res, request) => withHeaders(request, { 'if-none-match': header(res, 'etag') }),
};

/** GET /session/start sets the session cookie (and answers the CSRF token as JSON `{"token":…}`). */
const SESSION_SETUP: Setup = {
  request: { method: 'GET', path: '/session/start' },
  apply: (res, request, port) => {
    let token = '';
    try {
      token = String((JSON.parse(res.body) as { token?: unknown }).token ?? '');
    } catch {
      // no token: the check that follows reports the failure
    }
    const out = withHeaders(request, { cookie: cookiesOf(res) });
    if (request.method !== 'POST') return out;
    // The form post comes from the target's own origin, with the token of its session.
    return { ...withHeaders(out, { origin: `http://127.0.0.1:${port}` }), body: request.body?.replace('{token}', encodeURIComponent(token)) };
  },
};

/** GET /session-redis/start writes the session into Redis and sets its cookie. */
const REDIS_SESSION_SETUP: Setup = {
  request: { method: 'GET', path: '/session-redis/start' },
  apply: (res, request) => withHeaders(request, { cookie: cookiesOf(res) }),
};
// session-read-redis runs where a process keeps one Redis client.
const PROCESS_RUNTIMES: readonly RuntimeId[] = ['node', 'deno', 'bun'];

// No Content-Length required: Hono's serveStatic on Deno streams the file without one.
const CSS_HEADERS = { etag: /^(W\/)?"[^"]+"$/, 'cache-control': STATIC_CACHE_CONTROL };

export function appLayerScenarios(simple: Simple): Scenario[] {
  return [
    simple(
      'static',
      'Static file: 4 KiB CSS with ETag',
      { method: 'GET', path: '/static/app.css' },
      {
        status: 200,
        contentType: 'text/css',
        headers: CSS_HEADERS,
        bodyCheck: (body) => (body.length === CSS_SIZE && body.startsWith('/* The bench') ? null : `expected the ${CSS_SIZE}-byte CSS file`),
      },
      { frameworks: WITH_RAW, needs: 'rove/static', runtimes: FILE_RUNTIMES },
    ),
    simple(
      'static-304',
      'Static file: 304 to If-None-Match',
      { method: 'GET', path: '/static/app.css' },
      { status: 304, contentType: '', body: '' },
      { frameworks: WITH_RAW, needs: 'rove/static', setup: ETAG_SETUP, runtimes: FILE_RUNTIMES },
    ),
    simple(
      'session-read',
      'Session read from a cookie',
      { method: 'GET', path: '/session' },
      { status: 200, contentType: 'application/json', body: SESSION_BODY },
      { frameworks: NO_RAW, needs: 'rove/session', setup: SESSION_SETUP },
    ),
    simple(
      'cors-preflight',
      'CORS preflight',
      {
        method: 'OPTIONS',
        path: '/api/data',
        headers: { origin: CORS_ORIGIN, 'access-control-request-method': 'POST', 'access-control-request-headers': 'content-type' },
      },
      {
        status: 204,
        contentType: '',
        headers: {
          'access-control-allow-origin': CORS_ORIGIN,
          'access-control-allow-methods': /^GET, ?POST$/i,
          'access-control-allow-headers': /^content-type$/i,
          'access-control-max-age': '600',
          vary: /\bOrigin\b/i,
        },
      },
      { frameworks: WITH_RAW, needs: 'rove/cors' },
    ),
    simple(
      'secure-headers',
      'JSON with the default security headers',
      { method: 'GET', path: '/secure' },
      { status: 200, contentType: 'application/json', body: '{"ok":true}', headers: { 'x-content-type-options': 'nosniff', 'referrer-policy': /.+/ } },
      { frameworks: NO_RAW, needs: 'rove/secure-headers' },
    ),
    simple(
      'csrf-post',
      'Form POST with a valid CSRF token',
      { method: 'POST', path: '/form', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: 'name=bench&_csrf={token}' },
      { status: 200, contentType: 'text/plain', body: 'ok bench' },
      { frameworks: NO_RAW, needs: 'rove/csrf', setup: SESSION_SETUP },
    ),
    // rate-limited and session-read-redis. Hono: the npm package hono-rate-limiter with its MemoryStore (bench/hono/rate-limit.ts),
    // on the same fixed window, limit and key. Each sends two fields in its own draft's syntax: Rove the
    // structured `"default";q=…;w=…` / `"default";r=…;t=…`, hono-rate-limiter ('draft-7') `…;w=…` /
    // `limit=…, remaining=…, reset=…`; the check takes either, each whole and with the same numbers. raw: none.
    simple(
      'rate-limited',
      'Rate limit (memory store, 1,000,000/min per address); Hono: hono-rate-limiter (not on workerd)',
      { method: 'GET', path: '/limited' },
      {
        status: 200,
        contentType: 'application/json',
        body: '{"ok":true}',
        headers: {
          'ratelimit-policy': new RegExp(`^(${escapeRegExp(RATE_POLICY)}|${RATE_LIMIT};w=${RATE_WINDOW_S})$`),
          ratelimit: new RegExp(`^("default";r=\\d+;t=\\d+|limit=${RATE_LIMIT}, remaining=\\d+, reset=\\d+)$`),
        },
      },
      {
        frameworks: NO_RAW,
        needs: 'rove/rate-limit',
        leftOut: [
          {
            framework: 'hono',
            runtime: 'workerd',
            why: "hono-rate-limiter's MemoryStore calls setInterval when the limiter is made; workerd forbids timers in a Worker's global scope",
          },
        ],
      },
    ),
    // Rove's session() with redisStore against one bare Redis GET of the same key (raw); Hono has
    // no server-side session store to compare.
    simple(
      'session-read-redis',
      'Session read from Redis (one client per process); raw: one Redis GET',
      { method: 'GET', path: '/session-redis' },
      { status: 200, contentType: 'application/json', body: SESSION_BODY },
      { frameworks: ['rove', 'raw'], variant: 'redis', needs: 'rove/session redisStore', setup: REDIS_SESSION_SETUP, runtimes: PROCESS_RUNTIMES },
    ),
  ];
}
