// Compile-time checks of declared routes and the client: `tsc -p tsconfig.json --noEmit`
// fails if a @ts-expect-error below stops being an error. The runtime part only registers.
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createClient, implement, route } from '../../src/contract/index.ts';
import { App } from '../../src/core/app.ts';

const Item = z.object({ id: z.number(), name: z.string() });
const createItem = route({
  method: 'POST',
  path: '/items/:shop',
  request: { json: z.object({ name: z.string() }), query: z.object({ dry: z.enum(['yes', 'no']).optional() }) },
  responses: { 201: Item, 409: z.object({ conflict: z.string() }), 204: null },
});
const getItem = route({ method: 'GET', path: '/items/:id', responses: { 200: Item } });

describe('contract > types', () => {
  it('a handler replies only with declared statuses and bodies', () => {
    const app = new App();
    implement(app, createItem, (c) => {
      const body: { name: string } = c.valid('json');
      const dry: 'yes' | 'no' | undefined = c.valid('query').dry;
      const shop: string = c.req.param('shop');
      // @ts-expect-error: the route declares no params schema, so there is no c.valid('params')
      c.valid('params');
      // @ts-expect-error: `shop` is the only param of the path
      c.req.param('nope');
      if (dry === 'yes') return c.json({ conflict: shop }, 409);
      // @ts-expect-error: 201's body is an Item: `id` is missing
      if (body.name === 'x') return c.json({ name: body.name }, 201);
      // @ts-expect-error: 201's id is a number
      if (body.name === 'y') return c.json({ id: 'one', name: body.name }, 201);
      // @ts-expect-error: 200 is not declared for this route
      if (body.name === 'z') return c.json({ id: 1, name: body.name }, 200);
      // @ts-expect-error: 204 is declared without a body: not a JSON reply
      if (body.name === 'w') return c.json({}, 204);
      return c.json({ id: 1, name: body.name }, 201);
    });
    implement(app, getItem, (c) => c.json({ id: 1, name: 'a' }));
    // @ts-expect-error: without a status, c.json's body is the declared 200's, and 200 is an Item
    implement(new App(), getItem, (c) => c.json({ id: 'x' }));
    // @ts-expect-error: a handler returns a Response
    implement(new App(), getItem, () => ({ id: 1, name: 'a' }));
    expect(app.routeList.length).toBe(2);
  });

  it('a client call takes the declared inputs and narrows its result by status', async () => {
    const fetch = async () => Response.json({ id: 1, name: 'a' }, { status: 201 });
    const client = createClient<{ createItem: typeof createItem; getItem: typeof getItem }>('http://x', { fetch });
    // Never called: these calls exist to fail to compile.
    const _wrong = () => {
      // @ts-expect-error: the body is required
      client['POST /items/:shop']({ params: { shop: 's' } });
      // @ts-expect-error: the path param is required
      client['POST /items/:shop']({ json: { name: 'n' } });
      // @ts-expect-error: `name` is a string
      client['POST /items/:shop']({ params: { shop: 's' }, json: { name: 1 } });
      // @ts-expect-error: no such route
      client['GET /nope']();
    };
    const item = await client['GET /items/:id']({ params: { id: 3 } });
    expect(item.status).toBe(201);
    const res = await client['POST /items/:shop']({ params: { shop: 's' }, json: { name: 'n' }, query: { dry: 'no' } });
    if (res.status === 201) {
      const id: number = res.data.id;
      expect(id).toBe(1);
    } else if (res.status === 409) {
      const conflict: string = res.data.conflict;
      expect(conflict).toBeUndefined();
    } else if (res.status === 204) {
      const none: null = res.data;
      expect(none).toBeNull();
    } else {
      const problem: number = res.data.status;
      expect(problem).toBeDefined();
    }
  });

  it('params, query and headers a schema coerces take what it gives, or text; not anything', () => {
    const coerced = route({
      method: 'GET',
      path: '/p/:id{[0-9]+}',
      request: { params: z.object({ id: z.coerce.number().int().positive() }), query: z.object({ page: z.coerce.number().optional() }) },
      responses: { 200: Item },
    });
    const client = createClient<{ coerced: typeof coerced }>('http://x', { fetch: async () => Response.json({ id: 1, name: 'a' }) });
    const _calls = () => {
      client['GET /p/:id{[0-9]+}']({ params: { id: 7 }, query: { page: 2 } });
      client['GET /p/:id{[0-9]+}']({ params: { id: '7' }, query: { page: '2' } });
      // @ts-expect-error: an object is not a number, nor text (z.coerce takes `unknown`; the client does not)
      client['GET /p/:id{[0-9]+}']({ params: { id: { n: 7 } } });
      // @ts-expect-error: `id` is required
      client['GET /p/:id{[0-9]+}']({ params: {} });
    };
    expect(typeof _calls).toBe('function');
  });
});
