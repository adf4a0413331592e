import { describe, expect, it } from 'vitest';
import { checkContentType, checkResponse, expectedFortunesPage, normalizeQuoteEscapes, SCENARIOS, scenarioById } from '../../bench/lib/scenarios.ts';
import { fortunesForRequest } from '../../bench/shared/fixtures.ts';
import { fortunesPage } from '../../bench/shared/html.ts';
import { workerdConfig } from '../../dev/workerd.ts';

const res = (status: number, contentType: string, body: string, extra: Record<string, string> = {}) => ({
  status,
  headers: { 'content-type': contentType, ...extra },
  body,
});

describe('bench scenarios', () => {
  it('has unique ids, each with at least one check and a framework', () => {
    const ids = SCENARIOS.map((s) => s.id);
    expect(new Set(ids).size).toBe(ids.length);
    for (const s of SCENARIOS) {
      expect(s.checks.length).toBeGreaterThan(0);
      expect(s.checks[0]!.request).toEqual(s.request);
      expect(s.frameworks.length).toBeGreaterThan(0);
    }
  });

  it('accepts a right answer and names what is wrong with a wrong one', () => {
    const test = scenarioById('test').checks[0]!.expect;
    expect(checkResponse(test, res(200, 'application/json', '{"hello":"world!"}'))).toBeNull();
    expect(checkResponse(test, res(200, 'application/json; charset=UTF-8', '{"hello":"world!"}'))).toBeNull();
    expect(checkResponse(test, res(501, 'application/json', '{"detail":"views"}'))).toMatch(/expected status 200, got 501: .*views/);
    expect(checkResponse(test, res(200, 'text/plain', '{"hello":"world!"}'))).toMatch(/content-type/);
    expect(checkResponse(test, res(200, 'application/json', '{"hello":"world"}'))).toMatch(/expected body/);
  });

  it('checks response headers by value or pattern', () => {
    const chain = scenarioById('chain').checks[0]!.expect;
    const body = '{"hello":"chain","sub":"bench-user"}';
    const id = '123e4567-e89b-42d3-a456-426614174000';
    expect(checkResponse(chain, res(200, 'application/json', body, { 'x-powered-by': 'benchmark', 'x-request-id': id }))).toBeNull();
    expect(checkResponse(chain, res(200, 'application/json', body, { 'x-powered-by': 'benchmark' }))).toMatch(/missing response header x-request-id/);
    expect(checkResponse(chain, res(200, 'application/json', body, { 'x-powered-by': 'hono', 'x-request-id': id }))).toMatch(/x-powered-by/);
  });

  it('requires the charset only where the scenario names one', () => {
    expect(checkContentType('text/html; charset=utf-8', 'text/html; charset=UTF-8')).toBeNull();
    expect(checkContentType('text/html; charset=utf-8', 'text/html')).toMatch(/expected content-type/);
    expect(checkContentType('text/html', 'text/html; charset=utf-8')).toBeNull();
  });

  it('accepts the fortunes page whichever way quotes are escaped, never an unescaped <script>', () => {
    const fortunes = scenarioById('fortunes').checks[0]!.expect;
    const page = fortunesPage(fortunesForRequest());
    expect(page).toContain('<tr><td>0</td><td>Additional fortune added at request time.</td></tr>');
    expect(page.indexOf('<td>11</td>')).toBeLessThan(page.indexOf('<td>4</td>')); // "<script>" sorts first
    const type = 'text/html; charset=utf-8';
    expect(checkResponse(fortunes, res(200, type, page))).toBeNull();
    expect(checkResponse(fortunes, res(200, type, page.replace(/&#39;/g, '&#x27;').replace(/&quot;/g, '&#34;')))).toBeNull();
    expect(checkResponse(fortunes, res(200, type, page.replace(/&#39;/g, "'")))).toBeNull();
    expect(checkResponse(fortunes, res(200, type, page.replace('&lt;script&gt;', '<script>')))).toMatch(/not escaped/);
    expect(checkResponse(fortunes, res(200, type, page.replace('フレームワーク', 'framework')))).toMatch(/differs at character/);
    expect(normalizeQuoteEscapes('&quot;&#39;&#x27;&apos;&amp;')).toBe(`"'''&amp;`);
    expect(expectedFortunesPage()).toContain('&lt;script&gt;alert("This should not');
  });

  it('generates a workerd config serving one ES module on a loopback port', () => {
    const capnp = workerdConfig({ port: 4321, module: 'worker.js' });
    expect(capnp).toContain('address = "127.0.0.1:4321", http = (), service = "main"');
    expect(capnp).toContain('(name = "worker.js", esModule = embed "worker.js")');
    expect(capnp).toContain('compatibilityDate = "2025-01-01"');
  });
});
