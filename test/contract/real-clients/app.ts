// The shop API implemented in memory, its document at /openapi.json. Every runtime entry serves it.
import { implement, openapiHandler } from '../../../src/contract/index.ts';
import { App, HttpError } from '../../../src/index.ts';
import { basicAuth, bearerAuth } from '../../../src/middleware/auth/index.ts';
import { shop } from './api.ts';

export const TOKEN = 'shop-token';
export const BASIC = { username: 'clerk', password: 'counter' };

export function makeApp(): App {
  const items = new Map<number, { id: number; name: string; price: number }>([[1, { id: 1, name: 'kettle', price: 30 }]]);
  let nextId = 2;
  const find = (id: number) => {
    const item = items.get(id);
    if (!item) throw new HttpError(404, `No item ${id}`);
    return item;
  };
  const app = new App();
  app.get('/', (c) => c.text('ok'));
  implement(
    app,
    shop,
    {
      list: (c) => {
        const { limit = 10, q } = c.valid('query');
        return c.json([...items.values()].filter((i) => q === undefined || i.name.includes(q)).slice(0, limit), 200);
      },
      get: (c) => c.json(find(c.valid('params').id), 200),
      create: (c) => {
        const body = c.valid('json');
        if ([...items.values()].some((i) => i.name === body.name)) return c.json({ conflict: body.name }, 409);
        const item = { id: nextId++, ...body };
        items.set(item.id, item);
        const tag = c.valid('headers')['x-request-tag'];
        return c.json(item, 201, tag ? { 'x-request-tag': tag } : {});
      },
      replace: (c) => {
        const item = find(c.valid('params').id);
        Object.assign(item, c.valid('json'));
        return c.json(item, 200);
      },
      rename: (c) => {
        const item = find(c.valid('params').id);
        item.name = c.valid('form').name;
        return c.json(item, 200);
      },
      remove: (c) => {
        find(c.valid('params').id);
        items.delete(c.valid('params').id);
        return c.body(null, 204);
      },
      ping: (c) => c.body(null, 200),
      options: (c) => c.body(null, 204, { allow: 'GET, POST, OPTIONS' }),
    },
    { auth: { bearer: bearerAuth({ token: TOKEN }), basic: basicAuth(BASIC) } },
  );
  app.get('/openapi.json', openapiHandler(app, { info: { title: 'Shop', version: '1.0.0' } }));
  return app;
}
