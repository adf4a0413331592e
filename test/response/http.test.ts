// Responses built from header records, over real HTTP on every runtime: each helper's headers and
// content type, two Set-Cookie values kept apart, error headers, security headers, and HEAD.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RUNTIMES, type Running, start } from '../conformance/servers.ts';
import { get } from '../middleware/static/harness.ts';

type Answer = Awaited<ReturnType<typeof get>>;
const cookiesOf = (a: Answer) => ([] as string[]).concat((a.headers['set-cookie'] as string[] | string | undefined) ?? []);

describe.each(RUNTIMES)('responses with headers on %s', (runtime) => {
  let server: Running;
  beforeAll(async () => {
    server = await start(runtime, 'test/response/app');
  }, 60_000);
  afterAll(async () => {
    await server?.stop();
  });

  it('json, html and redirects carry their own headers and both cookies', async () => {
    const json = await get(server.url, '/json');
    expect(json.status).toBe(200);
    expect(json.headers['content-type']).toBe('application/json');
    expect(json.headers['x-a']).toBe('1');
    expect(cookiesOf(json)).toEqual(['a=1; Path=/', 'b=2; Path=/']);
    expect(JSON.parse(json.body.toString())).toEqual({ ok: true });
    const created = await get(server.url, '/json-201');
    expect([created.status, created.headers['content-type'], created.headers['x-a']]).toEqual([201, 'application/json', '1']);
    const html = await get(server.url, '/html');
    expect(html.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(cookiesOf(html)).toHaveLength(2);
    const moved = await get(server.url, '/redirect');
    expect([moved.status, moved.headers.location]).toEqual([303, '/json']);
    expect(cookiesOf(moved)).toHaveLength(2);
  });

  it('text, body, bytes and streams keep their content types', async () => {
    const text = await get(server.url, '/text');
    expect(String(text.headers['content-type']).toLowerCase()).toBe('text/plain;charset=utf-8');
    expect([text.headers['x-b'], text.body.toString()]).toEqual(['2', 'hi']);
    const body = await get(server.url, '/body');
    expect(String(body.headers['content-type']).toLowerCase()).toMatch(/^text\/plain/);
    expect([body.headers['x-d'], body.body.toString()]).toEqual(['4', 'plain']);
    const bytes = await get(server.url, '/bytes');
    expect([bytes.headers['content-type'], bytes.body.toString()]).toEqual(['application/octet-stream', 'hi']);
    const stream = await get(server.url, '/stream');
    expect(String(stream.headers['content-type']).toLowerCase()).toBe('text/plain;charset=utf-8');
    expect([stream.headers['x-e'], stream.body.toString()]).toEqual(['5', 'ab']);
    expect(cookiesOf(stream)).toHaveLength(2);
  });

  it('an error keeps its headers and cookies, with problem+json as its type', async () => {
    const a = await get(server.url, '/problem');
    expect(a.status).toBe(409);
    expect(a.headers['content-type']).toBe('application/problem+json');
    expect(a.headers['x-f']).toBe('6');
    expect(cookiesOf(a)).toEqual(['a=; Max-Age=0', 'b=; Max-Age=0']);
  });

  it('security headers reach the response, and a handler’s own value wins', async () => {
    const a = await get(server.url, '/secure');
    expect(a.headers['x-content-type-options']).toBe('nosniff');
    expect(a.headers['x-frame-options']).toBe('DENY');
    expect(a.headers['x-extra']).toBe('yes');
    expect(a.headers['strict-transport-security']).toBeUndefined(); // http
    expect(a.headers['content-type']).toBe('application/json');
    const own = await get(server.url, '/secure/own');
    expect(own.headers['x-frame-options']).toBe('SAMEORIGIN');
  });

  it('HEAD answers with the GET headers and no body', async () => {
    for (const path of ['/json', '/text', '/html']) {
      const g = await get(server.url, path);
      const h = await get(server.url, path, {}, 'HEAD');
      expect(h.status).toBe(200);
      expect(h.body.length).toBe(0);
      expect(h.headers['content-type']).toBe(g.headers['content-type']);
      expect(cookiesOf(h)).toEqual(cookiesOf(g));
      if (h.headers['content-length'] !== undefined) expect(h.headers['content-length']).toBe(g.headers['content-length']);
    }
  });
});
