// Every route of the shop API called through openapi-fetch, typed by the types openapi-typescript
// generated (paths.gen.ts): requests that fit the document, then requests that do not.
import createClient from 'openapi-fetch';
import { BASIC, TOKEN } from './app.ts';
import type { paths } from './paths.gen.ts';

export interface Called {
  name: string;
  method: string;
  path: string;
  status: number;
}

const bearer = { authorization: `Bearer ${TOKEN}` };
const basic = { authorization: `Basic ${btoa(`${BASIC.username}:${BASIC.password}`)}` };
const form = (fields: Record<string, string>) => new URLSearchParams(fields).toString();
const formHeaders = { 'content-type': 'application/x-www-form-urlencoded' };

/** Requests the document allows: each answer must be one it describes. */
export async function goodCalls(baseUrl: string): Promise<Called[]> {
  const client = createClient<paths>({ baseUrl });
  const out: Called[] = [];
  const note = (name: string, method: string, path: string, res: { response: Response }) => {
    out.push({ name, method, path, status: res.response.status });
  };
  const listed = await client.GET('/shop/items', { params: { query: { limit: 5 } } });
  note('list', 'GET', '/shop/items', listed);
  const first: number | undefined = listed.data?.[0]?.id;
  note('get', 'GET', '/shop/items/{id}', await client.GET('/shop/items/{id}', { params: { path: { id: first ?? 1 } } }));
  const created = await client.POST('/shop/items', {
    body: { name: 'teapot', price: 12.5 },
    params: { header: { 'x-request-tag': 'real-client' } },
    headers: bearer,
  });
  note('create', 'POST', '/shop/items', created);
  const id = created.data?.id ?? 1;
  note('create again: 409', 'POST', '/shop/items', await client.POST('/shop/items', { body: { name: 'teapot', price: 1 }, headers: bearer }));
  note(
    'replace',
    'PUT',
    '/shop/items/{id}',
    await client.PUT('/shop/items/{id}', { params: { path: { id } }, body: { name: 'big teapot', price: 20 }, headers: bearer }),
  );
  note(
    'rename (basic)',
    'PATCH',
    '/shop/items/{id}/name',
    await client.PATCH('/shop/items/{id}/name', {
      params: { path: { id } },
      body: { name: 'tea urn' },
      bodySerializer: form,
      headers: { ...basic, ...formHeaders },
    }),
  );
  note('ping', 'HEAD', '/shop/ping', await client.HEAD('/shop/ping'));
  note('options', 'OPTIONS', '/shop/items', await client.OPTIONS('/shop/items'));
  note('delete', 'DELETE', '/shop/items/{id}', await client.DELETE('/shop/items/{id}', { params: { path: { id } }, headers: bearer }));
  note('get a deleted item: 404', 'GET', '/shop/items/{id}', await client.GET('/shop/items/{id}', { params: { path: { id } } }));
  return out;
}

/** Requests the document refuses, sent as they are: each answer must still be one it describes. */
export async function badCalls(baseUrl: string): Promise<Called[]> {
  const client = createClient<paths>({ baseUrl });
  const out: Called[] = [];
  const send = async (name: string, method: string, path: string, init: RequestInit = {}) => {
    const res = await fetch(baseUrl + path, { method, ...init });
    await res.arrayBuffer();
    out.push({ name, method, path, status: res.status });
  };
  await send('a limit out of range', 'GET', '/shop/items?limit=0');
  await send('an id of 0', 'GET', '/shop/items/0');
  await send('an id past the pattern', 'GET', '/shop/items/abc');
  await send('an id past 2^53', 'GET', '/shop/items/99999999999999999999');
  await send('no credentials', 'POST', '/shop/items', { headers: { 'content-type': 'application/json' }, body: '{"name":"x","price":1}' });
  await send('a wrong token', 'POST', '/shop/items', {
    headers: { 'content-type': 'application/json', authorization: 'Bearer nope' },
    body: '{"name":"x","price":1}',
  });
  await send('an invalid body', 'POST', '/shop/items', { headers: { 'content-type': 'application/json', ...bearer }, body: '{"name":"","price":-1}' });
  // (A body that is not JSON is left out: Prism answers it 400 itself, without forwarding it.)
  await send('the wrong media type', 'POST', '/shop/items', { headers: { 'content-type': 'text/plain', ...bearer }, body: 'x' });
  await send('a form field too long', 'PATCH', '/shop/items/1/name', { headers: { ...formHeaders, ...basic }, body: form({ name: 'x'.repeat(41) }) });
  // Through the typed client too: a missing item is a problem, typed as the document's default.
  const missing = await client.GET('/shop/items/{id}', { params: { path: { id: 424242 } } });
  const detail: string | undefined = missing.error?.detail;
  out.push({ name: `a missing item (${detail})`, method: 'GET', path: '/shop/items/{id}', status: missing.response.status });
  return out;
}
