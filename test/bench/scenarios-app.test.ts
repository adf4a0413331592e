// The app-layer scenarios: what their setup request adds to the load request, and where they run.
import { describe, expect, it } from 'vitest';
import { resolveConfig } from '../../bench/lib/config.ts';
import { plannedRows } from '../../bench/lib/runner.ts';
import { checkResponse, scenarioById } from '../../bench/lib/scenarios.ts';

const answer = (headers: Record<string, string | string[]>, body = '') => ({ status: 200, headers, body });

describe('bench app-layer scenarios', () => {
  it('static-304 asks with the ETag the target answered', () => {
    const s = scenarioById('static-304');
    const req = s.setup!.apply(answer({ etag: 'W/"1000-18bcfe56800"' }), s.request, 1234);
    expect(req.headers).toEqual({ 'if-none-match': 'W/"1000-18bcfe56800"' });
    expect(req.path).toBe('/static/app.css');
  });

  it("csrf-post sends the session cookie, the target's own Origin and the token (form-encoded)", () => {
    const s = scenarioById('csrf-post');
    const res = answer({ 'set-cookie': ['rove.sid=abc; Path=/; HttpOnly; SameSite=Lax', 'other=1; Path=/'] }, '{"token":"a+b/c="}');
    const req = s.setup!.apply(res, s.request, 4321);
    expect(req.headers).toMatchObject({
      cookie: 'rove.sid=abc; other=1',
      origin: 'http://127.0.0.1:4321',
      'content-type': 'application/x-www-form-urlencoded',
    });
    expect(req.body).toBe('name=bench&_csrf=a%2Bb%2Fc%3D');
  });

  it('session-read sends the cookie and nothing else', () => {
    const s = scenarioById('session-read');
    const req = s.setup!.apply(answer({ 'set-cookie': 'session=x.y; Path=/' }, '{"token":""}'), s.request, 1);
    expect(req).toEqual({ method: 'GET', path: '/session', headers: { cookie: 'session=x.y' } });
  });

  it('a 304 or 204 check does not ask for a content type', () => {
    expect(checkResponse(scenarioById('static-304').checks[0]!.expect, { status: 304, headers: {}, body: '' })).toBeNull();
    const preflight = scenarioById('cors-preflight').checks[0]!.expect;
    const headers = {
      'access-control-allow-origin': 'https://app.example',
      'access-control-allow-methods': 'GET,POST',
      'access-control-allow-headers': 'content-type',
      'access-control-max-age': '600',
      vary: 'Origin',
    };
    expect(checkResponse(preflight, { status: 204, headers, body: '' })).toBeNull();
    expect(checkResponse(preflight, { status: 204, headers: { ...headers, 'access-control-allow-origin': undefined }, body: '' })).toMatch(/allow-origin/);
  });

  it('the static rows run only where there are files (not on the bare workerd)', () => {
    const config = resolveConfig({ scenarios: ['static', 'session-read'], runtimes: ['node', 'workerd'], frameworks: ['rove', 'hono', 'raw'] }, [
      'static',
      'session-read',
    ]);
    const rows = plannedRows(config).map((r) => `${r.runtime}/${r.framework}/${r.scenario.id}`);
    expect(rows).toEqual([
      'node/rove/static',
      'node/hono/static',
      'node/raw/static',
      'node/rove/session-read',
      'node/hono/session-read',
      'workerd/rove/session-read',
      'workerd/hono/session-read',
    ]);
  });
  it('rate-limited is Rove and Hono (no raw; no Hono on workerd), session-read-redis Rove and raw, on node, deno and bun', () => {
    const config = resolveConfig({ scenarios: ['rate-limited', 'session-read-redis'], runtimes: ['node', 'workerd'], frameworks: ['rove', 'hono', 'raw'] }, [
      'rate-limited',
      'session-read-redis',
    ]);
    expect(plannedRows(config).map((r) => `${r.runtime}/${r.framework}/${r.scenario.id}`)).toEqual([
      'node/rove/rate-limited',
      'node/hono/rate-limited',
      'node/rove/session-read-redis',
      'node/raw/session-read-redis',
      'workerd/rove/rate-limited',
    ]);
    expect(scenarioById('rate-limited').leftOut?.map((o) => `${o.runtime}/${o.framework}`)).toEqual(['workerd/hono']);
    expect(scenarioById('session-read-redis').variant).toBe('redis');
  });

  it('rate-limited checks both RateLimit fields; session-read-redis sends the cookie of its start request', () => {
    const expect200 = scenarioById('rate-limited').checks[0]!.expect;
    const ok = { 'content-type': 'application/json', 'ratelimit-policy': '"default";q=1000000;w=60', ratelimit: '"default";r=999999;t=60' };
    expect(checkResponse(expect200, { status: 200, headers: ok, body: '{"ok":true}' })).toBeNull();
    expect(checkResponse(expect200, { status: 200, headers: { 'content-type': 'application/json' }, body: '{"ok":true}' })).toMatch(/ratelimit/);
    // hono-rate-limiter's draft-7 fields, with the same limit and window.
    const hono = { 'content-type': 'application/json', 'ratelimit-policy': '1000000;w=60', ratelimit: 'limit=1000000, remaining=999999, reset=60' };
    expect(checkResponse(expect200, { status: 200, headers: hono, body: '{"ok":true}' })).toBeNull();
    const wrongLimit = { ...hono, 'ratelimit-policy': '5;w=60' };
    expect(checkResponse(expect200, { status: 200, headers: wrongLimit, body: '{"ok":true}' })).toMatch(/ratelimit-policy/);
    const s = scenarioById('session-read-redis');
    const req = s.setup!.apply(answer({ 'set-cookie': 'rsid=abc; Path=/; HttpOnly' }, '{"ok":true}'), s.request, 1);
    expect(req).toEqual({ method: 'GET', path: '/session-redis', headers: { cookie: 'rsid=abc' } });
  });
});
