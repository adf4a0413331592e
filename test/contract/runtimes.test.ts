// The contract fixture over real HTTP on every runtime: declared routes validate, the app
// serves its OpenAPI document, and the typed client (on the runtime's fetch) calls every route.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createClient } from '../../src/contract/index.ts';
import { RUNTIMES, type Running, start } from '../conformance/servers.ts';
import type { api } from './fixture/api.ts';
import { CREDENTIALS } from './fixture/app.ts';
import { standaloneScript } from './fixture/scalar.ts';

const BEARER = { authorization: `Bearer ${CREDENTIALS.token}` };
const BASIC = { authorization: `Basic ${btoa(`${CREDENTIALS.username}:${CREDENTIALS.password}`)}` };

import { openAPIErrors } from './openapi-check.ts';

describe.each(RUNTIMES)('contract on %s', (runtime) => {
  let server: Running;
  beforeAll(async () => {
    server = await start(runtime, 'test/contract/fixture', '/');
  });
  afterAll(async () => {
    await server?.stop();
  });

  it('serves a valid OpenAPI 3.1 document of its routes', async () => {
    const res = await fetch(`${server.url}/openapi.json`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('application/json');
    const doc = await res.json();
    expect(await openAPIErrors(doc)).toEqual([]);
    expect(Object.keys(doc.paths)).toEqual(
      expect.arrayContaining(['/v1/users', '/v1/users/{id}', '/v1/users/{id}/name', '/v1/files/{dir}/{name}', '/v1/files/{dir}', '/plain/{slug}']),
    );
  });

  it('serves the reference page and the script it loads: from the app, or on Workers as a static asset', async () => {
    const page = await fetch(`${server.url}/reference`);
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toBe('text/html; charset=utf-8');
    const html = await page.text();
    const src = /<script src="([^"]+)"><\/script>/.exec(html)?.[1];
    expect(src).toBe('/reference/standalone.js');
    expect(html).toContain('"url":"/openapi.json"');
    const script = await fetch(new URL(src!, server.url));
    expect(script.status).toBe(200);
    expect(script.headers.get('content-type')).toBe('text/javascript; charset=utf-8');
    const text = await script.text();
    expect(text).toBe(await standaloneScript());
    expect(text).toContain('createApiReference');
  });

  it('the typed client calls every declared route', async () => {
    const client = createClient<typeof api>(server.url, { headers: BEARER });
    const one = await client['GET /v1/users/:id{[0-9]+}']({ params: { id: 1 } });
    expect(one).toMatchObject({ status: 200, ok: true, data: { id: 1, name: 'Ada' } });
    expect((await client['GET /v1/users/:id{[0-9]+}']({ params: { id: 99 } })).status).toBe(404);
    const created = await client['POST /v1/users']({ json: { name: 'Grace', email: 'grace@example.com' }, headers: { 'x-request-tag': 'rt' } });
    expect(created.status).toBe(201);
    expect(created.response.headers.get('x-request-tag')).toBe('rt');
    const id = created.status === 201 ? created.data.id : 0;
    const renamed = await client['PUT /v1/users/:id{[0-9]+}/name']({ params: { id }, form: { name: 'Grace H.' }, init: { headers: BASIC } });
    expect(renamed.data).toEqual({ id, name: 'Grace H.', email: 'grace@example.com' });
    const list = await client['GET /v1/users']({ query: { q: 'Grace', limit: 5 } });
    expect(list.data).toEqual([{ id, name: 'Grace H.', email: 'grace@example.com' }]);
    const file = await client['GET /v1/files/:dir/:name?']({ params: { dir: 'a b#', name: 'ü?.txt' } });
    expect(file.data).toEqual({ dir: 'a b#', name: 'ü?.txt' });
    // A "/" in a param is sent as %2F, never as a path separator; Rove refuses %2F in any path.
    expect((await client['GET /v1/files/:dir/:name?']({ params: { dir: 'a/b', name: 'x' } })).status).toBe(400);
    expect((await client['GET /v1/files/:dir/:name?']({ params: { dir: 'd' } })).data).toEqual({ dir: 'd', name: null });
  });

  it('invalid input answers problem+json 400, a wrong body type 415', async () => {
    const client = createClient<typeof api>(server.url, { headers: BEARER });
    const bad = await client['POST /v1/users']({ json: { name: '' } });
    expect(bad.status).toBe(400);
    expect(bad.response.headers.get('content-type')).toBe('application/problem+json');
    if (bad.status === 400) expect(bad.data.errors?.map((e) => e.path)).toEqual(['name']);
    const query = await client['GET /v1/users']({ query: { limit: 1000 } });
    expect(query.status).toBe(400);
    const wrongType = await fetch(`${server.url}/v1/users`, { method: 'POST', headers: { 'content-type': 'text/plain', ...BEARER }, body: '{"name":"x"}' });
    expect(wrongType.status).toBe(415);
    await wrongType.arrayBuffer();
  });
});
