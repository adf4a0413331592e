import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createClient, fillPath, group, implement, openapi, openapiPaths, route } from '../../src/contract/index.ts';
import { App } from '../../src/core/app.ts';
import { validate } from '../../src/core/validate.ts';
import { api, getUser } from './fixture/api.ts';
import { CREDENTIALS, makeApp } from './fixture/app.ts';
import { openAPIErrors, validateOpenAPI } from './openapi-check.ts';

const BEARER = { authorization: `Bearer ${CREDENTIALS.token}` };
const BASIC = { authorization: `Basic ${btoa(`${CREDENTIALS.username}:${CREDENTIALS.password}`)}` };
const json = (body: unknown, headers: Record<string, string> = {}) => ({
  method: 'POST',
  headers: { 'content-type': 'application/json', ...BEARER, ...headers },
  body: JSON.stringify(body),
});

describe('contract > declared routes', () => {
  it('a declared route answers with its handler, inputs validated and coerced', async () => {
    const app = makeApp();
    const res = await app.request('/v1/users/1');
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ id: 1, name: 'Ada' });
    const list = await app.request('/v1/users?limit=1');
    expect(await list.json()).toEqual([{ id: 1, name: 'Ada' }]);
  });

  it('a bad query answers 400 problem+json naming the field', async () => {
    const res = await makeApp().request('/v1/users?limit=0');
    expect(res.status).toBe(400);
    expect(res.headers.get('content-type')).toBe('application/problem+json');
    const body = (await res.json()) as { errors: { path: string }[] };
    expect(body.errors[0].path).toBe('limit');
  });

  it('a JSON body of the wrong type answers 415, an invalid one 400', async () => {
    const app = makeApp();
    const wrongType = await app.request('/v1/users', { method: 'POST', headers: { 'content-type': 'text/plain', ...BEARER }, body: '{}' });
    expect(wrongType.status).toBe(415);
    const invalid = await app.request('/v1/users', json({ name: '' }));
    expect(invalid.status).toBe(400);
    const ok = await app.request('/v1/users', json({ name: 'Grace' }, { 'x-request-tag': 't1' }));
    expect(ok.status).toBe(201);
    expect(ok.headers.get('x-request-tag')).toBe('t1');
    expect(await ok.json()).toEqual({ id: 2, name: 'Grace' });
  });

  it('declared headers are validated: a bad one answers 400', async () => {
    const app = new App();
    const r = route({ method: 'GET', path: '/h', request: { headers: z.object({ 'x-n': z.coerce.number() }) }, responses: { 200: z.number() } });
    implement(app, r, (c) => c.json(c.valid('headers')['x-n'], 200));
    expect((await app.request('/h', { headers: { 'x-n': 'nope' } })).status).toBe(400);
    expect(await (await app.request('/h', { headers: { 'x-n': '7' } })).json()).toBe(7);
  });

  it('a form body is validated', async () => {
    const app = makeApp();
    const res = await app.request('/v1/users/1/name', { method: 'PUT', headers: BASIC, body: new URLSearchParams({ name: 'Ada L.' }) });
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ id: 1, name: 'Ada L.' });
    expect((await app.request('/v1/users/1/name', { method: 'PUT', headers: BASIC, body: new URLSearchParams({ name: '' }) })).status).toBe(400);
  });

  it('the pattern constraint still routes: a non-numeric id is a 404, plain routes keep working', async () => {
    const app = makeApp();
    expect((await app.request('/v1/users/abc')).status).toBe(404);
    expect(await (await app.request('/plain/x')).json()).toEqual({ slug: 'x' });
  });

  it('declared auth is enforced: no credentials 401, before the body is read; any declared scheme will do', async () => {
    const app = makeApp();
    const none = await app.request('/v1/users', { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"name":""}' });
    expect(none.status).toBe(401);
    expect(none.headers.get('www-authenticate')).toMatch(/^Bearer/);
    expect((await app.request('/v1/users', json({ name: 'Bo' }, { authorization: 'Bearer wrong' }))).status).toBe(401);
    expect((await app.request('/v1/users/1/name', { method: 'PUT', body: new URLSearchParams({ name: 'x' }) })).status).toBe(401);
    // The second declared scheme (jwt) takes what the first (bearer) refused.
    const { SignJWT } = await import('jose');
    const token = await new SignJWT({ sub: 'ada' })
      .setProtectedHeader({ alg: 'HS256' })
      .setExpirationTime('5m')
      .sign(new TextEncoder().encode(CREDENTIALS.jwtSecret));
    expect((await app.request('/v1/users', json({ name: 'Bo' }, { authorization: `Bearer ${token}` }))).status).toBe(201);
  });

  it('implement() refuses a declared auth scheme that nothing enforces', () => {
    const r = route({ method: 'GET', path: '/me', auth: 'jwt', responses: { 200: z.string() } });
    expect(() => implement(new App(), r, (c) => c.json('me', 200))).toThrow(/declares auth 'jwt', and nothing enforces it/);
    const app = new App();
    expect(() => implement(app, r, (c) => c.json('me', 200), { auth: { bearer: (_c, next) => next() } })).toThrow(/'jwt'/);
    expect(app.routeList).toEqual([]);
  });

  it('route() refuses a 404 on a path whose param has a pattern: the router answers that 404', () => {
    expect(() => route({ method: 'GET', path: '/p/:id{[0-9]+}', responses: { 200: z.string(), 404: null } })).toThrow(
      /leave 404 out and throw new HttpError\(404\)/,
    );
    expect(route({ method: 'GET', path: '/p/:id', responses: { 200: z.string(), 404: null } }).responses[404]).toBeNull();
  });

  it('a missing handler registers nothing', () => {
    const app = new App();
    expect(() => implement(app, api, { users: {} } as never)).toThrow(/no handler/);
    expect(app.routeList).toEqual([]);
  });

  it('route() refuses a bad declaration', () => {
    expect(() => route({ method: 'GET', path: '/x', request: { json: z.string() }, responses: { 200: null } })).toThrow(/no body/);
    expect(() => route({ method: 'GET', path: 'x', responses: { 200: null } })).toThrow();
    expect(() => route({ method: 'GET', path: '/x', responses: {} })).toThrow(/at least one/);
    expect(() => route({ method: 'GET', path: '/x', request: { query: {} as never }, responses: { 200: null } })).toThrow(/Standard Schema/);
  });

  it('group() prefixes every path, nested groups too', () => {
    const g = group('/v2', { inner: group('/a', { getUser }) });
    expect(g.inner.getUser.path).toBe('/v2/a/users/:id{[0-9]+}');
    expect(api.users.get.path).toBe('/v1/users/:id{[0-9]+}');
  });
});

describe('contract > openapi', () => {
  const info = { title: 'Users', version: '1.0.0' };

  it('paths convert: constraints become patterns, optional params two paths', () => {
    expect(openapiPaths('/users/:id{[0-9]+}')).toEqual([{ path: '/users/{id}', params: [{ name: 'id', pattern: '^(?:[0-9]+)$' }] }]);
    expect(openapiPaths('/files/:dir/:name?').map((p) => p.path)).toEqual(['/files/{dir}/{name}', '/files/{dir}']);
    expect(openapiPaths('/static/*rest')[0]).toEqual({ path: '/static/{rest}', params: [{ name: 'rest', wildcard: true }] });
  });

  it('the document of a contract describes params, query, headers, bodies, responses and security', async () => {
    const doc = openapi(api, { info, servers: [{ url: 'https://api.example.com' }] });
    expect(await openAPIErrors(doc)).toEqual([]);
    const get = doc.paths['/v1/users/{id}'].get as any;
    // A number keeps its type and bounds: a pattern would only apply to a string.
    expect(get.parameters[0]).toMatchObject({ name: 'id', in: 'path', required: true, schema: { type: 'integer' } });
    expect(get.parameters[0].schema.pattern).toBeUndefined();
    expect(Object.keys(get.responses).sort()).toEqual(['200', '400', 'default']);
    expect(get.responses['400'].content['application/problem+json'].schema).toEqual({ $ref: '#/components/schemas/Problem' });
    const list = doc.paths['/v1/users'].get as any;
    expect(list.parameters.map((p: any) => [p.name, p.in, p.required])).toEqual([
      ['limit', 'query', false],
      ['q', 'query', false],
    ]);
    const create = doc.paths['/v1/users'].post as any;
    expect(create.requestBody.content['application/json'].schema.required).toEqual(['name']);
    expect(create.security).toEqual([{ bearer: [] }, { jwt: [] }]);
    expect(create.responses['401']).toBeDefined();
    expect(create.responses['415']).toBeDefined();
    expect(create.parameters).toEqual([{ name: 'x-request-tag', in: 'header', required: false, schema: { type: 'string' } }]);
    expect(Object.keys((doc.paths['/v1/users/{id}/name'].put as any).requestBody.content)).toEqual([
      'application/x-www-form-urlencoded',
      'multipart/form-data',
    ]);
    expect(doc.components.securitySchemes).toEqual({
      bearer: { type: 'http', scheme: 'bearer' },
      jwt: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT' },
      basic: { type: 'http', scheme: 'basic' },
    });
    expect(doc.paths['/v1/files/{dir}']).toBeDefined();
  });

  it('the document of an app holds its declared routes and its plain ones', async () => {
    const doc = openapi(makeApp(), { info });
    expect(await openAPIErrors(doc)).toEqual([]);
    expect(doc.paths['/v1/users/{id}'].get).toBeDefined();
    expect((doc.paths['/plain/{slug}'].get as any).parameters[0]).toMatchObject({ name: 'slug', in: 'path' });
  });

  it('a plain route is described as far as its validate() schemas tell', async () => {
    const app = new App();
    app.post('/notes/:id', validate('query', z.object({ draft: z.enum(['yes', 'no']) })), validate('json', z.object({ text: z.string() })), (c) =>
      c.text('ok'),
    );
    app.all('/any', (c) => c.text('any'));
    const doc = openapi(app, { info });
    expect(await openAPIErrors(doc)).toEqual([]);
    const op = doc.paths['/notes/{id}'].post as any;
    expect(op.parameters.map((p: any) => [p.name, p.in, p.required])).toEqual([
      ['id', 'path', true],
      ['draft', 'query', true],
    ]);
    expect(op.requestBody.content['application/json'].schema).toMatchObject({ type: 'object', required: ['text'] });
    expect(Object.keys(op.responses).sort()).toEqual(['400', '415', 'default']);
    expect(doc.paths['/any']).toBeUndefined();
  });

  it('declared routes on a mounted app keep their declarations under the full path', async () => {
    const sub = new App();
    implement(sub, getUser, (c) => c.json({ id: c.valid('params').id, name: 'x' }, 200));
    const app = new App().route('/api', sub);
    const doc = openapi(app, { info });
    expect(await openAPIErrors(doc)).toEqual([]);
    const op = doc.paths['/api/users/{id}'].get as any;
    expect(Object.keys(op.responses).sort()).toEqual(['200', '400', 'default']);
    expect(op.summary).toBe('One user');
  });

  it('one handler for two declared routes keeps both declarations', () => {
    const app = new App();
    const a = route({ method: 'GET', path: '/a', responses: { 200: z.string() } });
    const b = route({ method: 'GET', path: '/b', responses: { 201: z.string() } });
    const h = (c: any) => c.json('x', 200);
    implement(app, a, h);
    implement(app, b, h);
    const doc = openapi(app, { info });
    expect(Object.keys((doc.paths['/a'].get as any).responses)).toContain('200');
    expect(Object.keys((doc.paths['/b'].get as any).responses)).toContain('201');
  });

  it('the validator is real: it rejects a broken document', async () => {
    const doc = structuredClone(openapi(api, { info })) as any;
    expect(await openAPIErrors(doc)).toEqual([]);
    delete doc.paths['/v1/users/{id}'].get.parameters; // {id} in the path, never declared
    doc.paths['/v1/users'].get.responses = 'none';
    expect((await validateOpenAPI(doc)).join('\n')).toMatch(/responses|parameter/i);
  });

  it('the app serves its document as JSON', async () => {
    const res = await makeApp().request('/openapi.json');
    expect(res.headers.get('content-type')).toBe('application/json');
    const doc = await res.json();
    expect(doc.openapi).toBe('3.1.0');
    expect(await openAPIErrors(doc)).toEqual([]);
  });

  it('a schema without ~standard.jsonSchema uses options.jsonSchema, or {}', () => {
    const plain = { '~standard': { version: 1 as const, vendor: 'x', validate: (v: unknown) => ({ value: v }) } };
    const r = route({ method: 'POST', path: '/p', request: { json: plain }, responses: { 200: null } });
    const body = (d: any) => d.paths['/p'].post.requestBody.content['application/json'].schema;
    expect(body(openapi(r, { info }))).toEqual({});
    expect(body(openapi(r, { info, jsonSchema: () => ({ type: 'string' }) }))).toEqual({ type: 'string' });
  });
});

describe('contract > client', () => {
  const client = () => {
    const app = makeApp();
    return createClient<typeof api>('http://localhost', { fetch: (input, init) => app.request(input, init), headers: { authorization: 'Bearer t' } });
  };

  it('a call per route, typed by status', async () => {
    const c = client();
    const res = await c['GET /v1/users/:id{[0-9]+}']({ params: { id: 1 } });
    expect(res.status).toBe(200);
    if (res.status === 200) expect(res.data.name).toBe('Ada');
    const missing = await c['GET /v1/users/:id{[0-9]+}']({ params: { id: 9 } });
    expect(missing).toMatchObject({ status: 404, ok: false, data: { status: 404, detail: 'No such user' } });
  });

  it('bodies, query, headers and forms reach the app; errors are problems', async () => {
    const c = client();
    const created = await c['POST /v1/users']({ json: { name: 'Grace' }, headers: { 'x-request-tag': 'a' } });
    expect(created.status).toBe(201);
    expect(created.response.headers.get('x-request-tag')).toBe('a');
    const list = await c['GET /v1/users']({ query: { q: 'Gr' } });
    expect(list.data).toEqual([{ id: 2, name: 'Grace' }]);
    const bad = await c['POST /v1/users']({ json: { name: '' } });
    expect(bad.status).toBe(400);
    if (bad.status === 400) expect(bad.data.errors?.[0].path).toBe('name');
    const renamed = await c['PUT /v1/users/:id{[0-9]+}/name']({ params: { id: 2 }, form: { name: 'G. Hopper' }, init: { headers: BASIC } });
    expect(renamed.data).toEqual({ id: 2, name: 'G. Hopper' });
  });

  it('params are percent-encoded, never concatenated raw; an absent optional param drops its segment', async () => {
    expect(fillPath('/files/:dir/:name?', { dir: 'a/b?c#d', name: '..' })).toBe('/files/a%2Fb%3Fc%23d/..');
    expect(fillPath('/files/:dir/:name?', { dir: 'x' })).toBe('/files/x');
    expect(fillPath('/u/:id{[0-9]{1,3}}', { id: 7 })).toBe('/u/7');
    expect(fillPath('/s/*rest', { rest: 'a b/c' })).toBe('/s/a%20b/c');
    expect(() => fillPath('/u/:id', {})).toThrow(/Missing/);
    const res = await client()['GET /v1/files/:dir/:name?']({ params: { dir: 'a b', name: 'ü.txt' } });
    expect(res.data).toEqual({ dir: 'a b', name: 'ü.txt' });
  });
});

describe('contract > valibot', () => {
  // valibot 1.5 has no ~standard.jsonSchema: validation works as with zod, and the document takes
  // the `jsonSchema` option's answer, which @valibot/to-json-schema gives.
  it('a valibot schema is described through @valibot/to-json-schema, and the document is valid', async () => {
    const v = await import('valibot');
    const { toJsonSchema } = await import('@valibot/to-json-schema');
    const Post = v.object({ title: v.pipe(v.string(), v.minLength(1)), tags: v.optional(v.array(v.string())) });
    const r = route({ method: 'POST', path: '/posts', request: { json: Post }, responses: { 201: Post } });
    const doc = openapi(r, { info: { title: 't', version: '1' }, jsonSchema: (s) => toJsonSchema(s as never) as Record<string, unknown> });
    const schema = (doc.paths['/posts'].post as any).requestBody.content['application/json'].schema;
    expect(schema).toMatchObject({ type: 'object', required: ['title'], properties: { title: { type: 'string', minLength: 1 } } });
    const { default: SwaggerParser } = await import('@apidevtools/swagger-parser');
    await SwaggerParser.validate(structuredClone(doc) as never);
  });

  it('a valibot schema validates a declared route and is described through options.jsonSchema', async () => {
    const v = await import('valibot');
    const Body = v.object({ title: v.pipe(v.string(), v.minLength(1)) });
    const r = route({ method: 'POST', path: '/posts', request: { json: Body }, responses: { 201: Body } });
    const app = new App();
    implement(app, r, (c) => c.json(c.valid('json'), 201));
    expect((await app.request('/posts', json({ title: '' }))).status).toBe(400);
    expect(await (await app.request('/posts', json({ title: 'Hi' }))).json()).toEqual({ title: 'Hi' });
    const doc = openapi(r, { info: { title: 't', version: '1' }, jsonSchema: (s) => (s === Body ? { type: 'object', required: ['title'] } : undefined) });
    expect((doc.paths['/posts'].post as any).requestBody.content['application/json'].schema).toEqual({ type: 'object', required: ['title'] });
  });
});
