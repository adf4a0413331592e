// The scenario table (docs/benchmarks/methods.md). Adding a scenario here is all the runner
// needs: the load request, the checks run once before load, and which
// frameworks can express it. A framework not listed leaves the row out.

import { BENCH_TOKEN, ECHO_BODY, fortunesForRequest, PARAMS_BODY, POWERED_BY } from '../shared/fixtures.ts';
import { FILTER_ITEMS, filterList, fortunesPage } from '../shared/html.ts';
import type { FrameworkId, RuntimeId } from './config.ts';
import { dbScenarios } from './db-scenarios.ts';
import type { ProbeResponse } from './http.ts';
import { appLayerScenarios } from './scenarios-app.ts';

export interface RequestSpec {
  method: 'GET' | 'POST' | 'OPTIONS';
  path: string;
  headers?: Record<string, string>;
  body?: string;
}

export interface Expectation {
  status: number;
  /** Media type, optionally with `; charset=…` (then the charset must match too); '' checks nothing (204, 304). */
  contentType: string;
  /** Exact body. */
  body?: string;
  /** Custom body check for bodies that may legitimately differ in form; returns an error or null. */
  bodyCheck?: (body: string) => string | null;
  headers?: Record<string, string | RegExp>;
}

export interface Check {
  name: string;
  request: RequestSpec;
  expect: Expectation;
}

/**
 * A target variant is a differently started server, as the seed benchmark
 * started main.ts, main-worker.ts and main-log.ts: with one empty event
 * listener attached, or with the worker pool enabled. `cpu`: the same app with V8's Maglev tier
 * off where the runtime has it (docs/benchmarks/methods.md, CPU loop on the request thread).
 */
export type Variant = 'default' | 'listener' | 'workers' | 'db' | 'redis' | 'cpu';

export interface Scenario {
  id: string;
  title: string;
  /** The request put under load; checks[0] checks its response. */
  request: RequestSpec;
  checks: Check[];
  frameworks: readonly FrameworkId[];
  variant: Variant;
  /** The Rove feature the scenario needs; the app answers 501 naming it while missing. */
  needs?: string;
  /** Pipelining for this scenario whatever the profile says (the DB scenarios: 1, as TechEmpower runs them). */
  pipelining?: number;
  /**
   * A request sent once per target before its checks (a login, a first GET), whose answer
   * completes the scenario's requests: a session cookie, a CSRF token, an ETag. Each
   * framework encodes these its own way, so they cannot be written into the scenario.
   */
  setup?: Setup;
  /** Runtimes the scenario runs on; all when absent. */
  runtimes?: readonly RuntimeId[];
  /**
   * Rows left out (not measured, not faked) where one framework's stand-in cannot run on one
   * runtime, with why: e.g. a third-party middleware that needs what that runtime forbids.
   */
  leftOut?: readonly { framework: FrameworkId; runtime: RuntimeId; why: string }[];
  /**
   * How it is measured, when not by one load on `request`: 'alternate-listener' switches the
   * empty listener off and on between alternating rounds in one server process; 'pool-p99'
   * measures `request` (light) while `saturate` is kept busy (bench/lib/pool-p99.ts).
   */
  method?: 'alternate-listener' | 'pool-p99';
  /** The saturating request of a 'pool-p99' scenario. */
  saturate?: RequestSpec;
}

export interface Setup {
  request: RequestSpec;
  /** The load (and check) request completed from the setup's answer; `port` is the target's. */
  apply(res: ProbeResponse, request: RequestSpec, port: number): RequestSpec;
}

const ALL: readonly FrameworkId[] = ['rove', 'rove-fs', 'hono', 'raw'];
const JSON_POST = { 'content-type': 'application/json' };
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

// Template engines escape quotes differently (&#39; &#x27; &apos; or not at all);
// only <, > and & must be escaped in text, so compare with quote escapes undone.
const QUOTE_REFS: Record<string, string> = { '&quot;': '"', '&#34;': '"', '&#x22;': '"', '&#39;': "'", '&#x27;': "'", '&apos;': "'" };
export function normalizeQuoteEscapes(html: string): string {
  return html.replace(/&(quot|apos|#34|#x22|#39|#x27);/gi, (ref) => QUOTE_REFS[ref.toLowerCase()] ?? ref);
}

export function expectedFortunesPage(): string {
  return normalizeQuoteEscapes(fortunesPage(fortunesForRequest()));
}

function fortunesCheck(body: string): string | null {
  if (body.includes('<script>')) return 'the <script> fortune is not escaped';
  const want = expectedFortunesPage();
  const got = normalizeQuoteEscapes(body);
  if (got === want) return null;
  let i = 0;
  while (i < want.length && want[i] === got[i]) i++;
  return `body differs at character ${i}: expected …${JSON.stringify(want.slice(i, i + 40))}, got …${JSON.stringify(got.slice(i, i + 40))}`;
}

function get(path: string, headers?: Record<string, string>): RequestSpec {
  return headers ? { method: 'GET', path, headers } : { method: 'GET', path };
}

export function simple(
  id: string,
  title: string,
  request: RequestSpec,
  expect: Expectation,
  more: Partial<Omit<Scenario, 'id' | 'title' | 'request'>> = {},
): Scenario {
  return {
    id,
    title,
    request,
    checks: [{ name: `${request.method} ${request.path}`, request, expect }, ...(more.checks ?? [])],
    frameworks: more.frameworks ?? ALL,
    variant: more.variant ?? 'default',
    ...(more.needs ? { needs: more.needs } : {}),
    ...(more.pipelining ? { pipelining: more.pipelining } : {}),
    ...(more.setup ? { setup: more.setup } : {}),
    ...(more.runtimes ? { runtimes: more.runtimes } : {}),
    ...(more.leftOut ? { leftOut: more.leftOut } : {}),
    ...(more.method ? { method: more.method } : {}),
    ...(more.saturate ? { saturate: more.saturate } : {}),
  };
}

const INVALID_PARAMS =
  '{"name":"","email":"not-an-address","age":-3,"role":"root","active":"yes","score":101,"tags":[],"country":"gb","bio":"","address":{"city":"London","zip":"W1"}}';

export const SCENARIOS: readonly Scenario[] = [
  simple('test', 'JSON hello', get('/test'), { status: 200, contentType: 'application/json', body: '{"hello":"world!"}' }),
  simple('text', 'Plain text', get('/text'), { status: 200, contentType: 'text/plain', body: 'Hello world' }),
  simple(
    'test-cpu',
    'CPU loop on the request thread',
    get('/test-cpu'),
    { status: 200, contentType: 'application/json', body: '{"hello":"cpu","value":7453447.913900535}' },
    // Maglev off: otherwise which framework function Maglev compiles first decides whether the loop
    // runs in TurboFan code or, inlined, in slower Maglev code (methods.md).
    { variant: 'cpu' },
  ),
  simple(
    'test-worker',
    'CPU loop in the worker pool',
    get('/test-worker'),
    { status: 200, contentType: 'application/json', body: '{"hello":"worker","value":7453447.913900535}' },
    // Hono and the bare runtimes have no worker pool to compare with.
    { frameworks: ['rove', 'rove-fs'], variant: 'workers', needs: 'worker pool' },
  ),
  simple('test-view', 'View: one variable', get('/test-view'), { status: 200, contentType: 'text/html', body: 'Hello World.' }, { needs: 'views' }),
  simple(
    'test-view-include',
    'View: include a partial',
    get('/test-view-include'),
    { status: 200, contentType: 'text/html', body: 'Hello Nea.' },
    { needs: 'views' },
  ),
  simple(
    'test-view-each-meta',
    'View: #each with @index/@length/@first/@last',
    get('/test-view-each-meta'),
    {
      status: 200,
      contentType: 'text/html',
      body: Array.from({ length: 50 }, (_, i) => `(${i}/50 ${i === 0 ? 'F' : '-'}${i === 49 ? 'L' : '-'}=${i});`).join(''),
    },
    { needs: 'views' },
  ),
  simple(
    'test-view-filter',
    'View: 50 items with a date and a currency filter',
    get('/test-view-filter'),
    { status: 200, contentType: 'text/html', body: filterList(FILTER_ITEMS) },
    { needs: 'views', frameworks: ['rove', 'hono', 'raw'] },
  ),
  simple(
    'test-view-expr',
    'View: expressions',
    get('/test-view-expr'),
    { status: 200, contentType: 'text/html', body: 'Hello Nea.\nADMIN\nSum=7' },
    { needs: 'views' },
  ),
  simple('json-nested', 'Nested JSON built per request', get('/json-nested'), {
    status: 200,
    contentType: 'application/json',
    body: '{"id":1,"name":"John Doe","email":"john@example.com","createdAt":"2026-01-15T08:00:00.000Z","profile":{"avatar":"https://example.com/avatar.png","bio":"Software Engineer","location":"Shanghai, China"},"roles":["user","admin"],"metadata":{"loginCount":42,"lastLogin":"2026-01-14T20:30:00.000Z"}}',
  }),
  simple(
    'params',
    'Schema validation of a 10-field body',
    { method: 'POST', path: '/params', headers: JSON_POST, body: PARAMS_BODY },
    { status: 200, contentType: 'application/json', body: PARAMS_BODY },
    {
      checks: [
        {
          name: 'POST /params (invalid body)',
          request: { method: 'POST', path: '/params', headers: { ...JSON_POST, accept: 'application/json' }, body: INVALID_PARAMS },
          expect: {
            status: 400,
            contentType: 'application/problem+json',
            bodyCheck: (body) => {
              const missing = ['name', 'email', 'age', 'role', 'country'].filter((f) => !body.includes(f));
              return missing.length ? `the problem does not name the fields ${missing.join(', ')}` : null;
            },
          },
        },
      ],
    },
  ),
  simple(
    'chain',
    'Five middleware layers',
    get('/chain', { authorization: `Bearer ${BENCH_TOKEN}` }),
    {
      status: 200,
      contentType: 'application/json',
      body: '{"hello":"chain","sub":"bench-user"}',
      headers: { 'x-powered-by': POWERED_BY, 'x-request-id': UUID },
    },
    {
      checks: [
        {
          name: 'GET /chain (x-request-id echoed)',
          request: get('/chain', { authorization: `Bearer ${BENCH_TOKEN}`, 'x-request-id': 'bench-check-1' }),
          expect: {
            status: 200,
            contentType: 'application/json',
            body: '{"hello":"chain","sub":"bench-user"}',
            headers: { 'x-request-id': 'bench-check-1' },
          },
        },
      ],
    },
  ),
  simple(
    'query',
    'Route param and query string',
    get('/id/1?name=bun'),
    { status: 200, contentType: 'text/plain', body: '1 bun', headers: { 'x-powered-by': POWERED_BY } },
    {
      checks: [
        {
          name: 'GET /id/42?x=1&name=a%20b',
          request: get('/id/42?x=1&name=a%20b'),
          expect: { status: 200, contentType: 'text/plain', body: '42 a b', headers: { 'x-powered-by': POWERED_BY } },
        },
      ],
    },
  ),
  simple(
    'echo',
    'JSON body echo',
    { method: 'POST', path: '/json', headers: JSON_POST, body: ECHO_BODY },
    { status: 200, contentType: 'application/json', body: ECHO_BODY },
  ),
  simple(
    'fortunes',
    'Fortunes: sort, escape, render a table',
    get('/fortunes'),
    { status: 200, contentType: 'text/html; charset=utf-8', bodyCheck: fortunesCheck },
    { needs: 'views' },
  ),
  simple(
    'listener',
    'GET /test with one empty event listener',
    get('/test'),
    { status: 200, contentType: 'application/json', body: '{"hello":"world!"}' },
    { frameworks: ['rove', 'rove-fs'], variant: 'listener', needs: 'events (app.on)', method: 'alternate-listener' },
  ),
  simple(
    'pool-p99-cpu',
    'p99 of GET /test while GET /test-cpu saturates the request thread',
    get('/test'),
    { status: 200, contentType: 'application/json', body: '{"hello":"world!"}' },
    { frameworks: ['rove'], variant: 'workers', needs: 'worker pool', method: 'pool-p99', saturate: get('/test-cpu') },
  ),
  simple(
    'pool-p99-worker',
    'p99 of GET /test while GET /test-worker saturates the worker pool',
    get('/test'),
    { status: 200, contentType: 'application/json', body: '{"hello":"world!"}' },
    {
      frameworks: ['rove'],
      variant: 'workers',
      needs: 'worker pool',
      method: 'pool-p99',
      saturate: get('/test-worker'),
      checks: [
        {
          name: 'GET /test-worker',
          request: get('/test-worker'),
          expect: { status: 200, contentType: 'application/json', body: '{"hello":"worker","value":7453447.913900535}' },
        },
      ],
    },
  ),
  ...dbScenarios(simple, fortunesCheck),
  ...appLayerScenarios(simple),
];

export const SCENARIO_IDS: readonly string[] = SCENARIOS.map((s) => s.id);

export function scenarioById(id: string): Scenario {
  const s = SCENARIOS.find((x) => x.id === id);
  if (!s) throw new Error(`unknown scenario ${id}`);
  return s;
}

/** Compares one response with an expectation; returns the reason it is wrong, or null. */
export function checkResponse(
  expect: Expectation,
  res: { status: number; headers: Record<string, string | string[] | undefined>; body: string },
): string | null {
  const snippet = () => (res.body.length > 160 ? `${JSON.stringify(res.body.slice(0, 160))}…` : JSON.stringify(res.body));
  if (res.status !== expect.status) return `expected status ${expect.status}, got ${res.status}: ${snippet()}`;
  const ct = String(res.headers['content-type'] ?? '');
  const ctError = expect.contentType === '' ? null : checkContentType(expect.contentType, ct);
  if (ctError) return ctError;
  for (const [name, want] of Object.entries(expect.headers ?? {})) {
    const got = res.headers[name];
    const value = Array.isArray(got) ? got.join(', ') : got;
    if (value === undefined) return `missing response header ${name}`;
    if (typeof want === 'string' ? value !== want : !want.test(value)) return `header ${name}: expected ${want}, got ${JSON.stringify(value)}`;
  }
  if (expect.body !== undefined && res.body !== expect.body) return `expected body ${JSON.stringify(expect.body.slice(0, 160))}, got ${snippet()}`;
  if (expect.bodyCheck) return expect.bodyCheck(res.body);
  return null;
}

export function checkContentType(expected: string, actual: string): string | null {
  const parse = (v: string) => {
    const [type = '', ...params] = v.split(';').map((s) => s.trim().toLowerCase());
    const charset = params
      .find((p) => p.startsWith('charset='))
      ?.slice(8)
      .replace(/"/g, '');
    return { type, charset };
  };
  const want = parse(expected);
  const got = parse(actual);
  if (want.type !== got.type) return `expected content-type ${expected}, got ${JSON.stringify(actual)}`;
  if (want.charset && want.charset !== got.charset) return `expected content-type ${expected}, got ${JSON.stringify(actual)}`;
  return null;
}

/** Whether a framework has a scenario; rove-baseline (--baseline) is Rove's bench app, so it has Rove's. */
export function hasScenario(s: Scenario, framework: FrameworkId, runtime?: RuntimeId): boolean {
  const f = framework === 'rove-baseline' ? 'rove' : framework;
  if (!s.frameworks.includes(f)) return false;
  return runtime === undefined || !s.leftOut?.some((o) => o.framework === f && o.runtime === runtime);
}
