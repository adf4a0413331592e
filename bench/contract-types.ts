// The sources of the contract type-check benchmark (bench/type-check.ts --contract): n declared
// routes with rove/contract and a typed client calling every one, beside Hono's RPC (`hc`) on the
// same routes, with the same zod schemas through hono/validator. Six route shapes, cycled.

const SCHEMAS = `const Item = z.object({ id: z.number(), name: z.string() });
const NewItem = z.object({ name: z.string() });
const Query = z.object({ q: z.string().optional() });
const Id = z.object({ id: z.string() });`;

interface Shape {
  method: 'GET' | 'POST' | 'DELETE';
  path: (i: number) => string;
  /** rove/contract's request parts and responses. */
  request: string;
  responses: string;
  handler: string;
  /** The client call's input, for both clients. */
  input: string;
  /** Hono: validators and handler. */
  hono: string;
  /** Hono's client path segments after `client`. */
  honoPath: (i: number) => string;
}

const SHAPES: Shape[] = [
  {
    method: 'GET',
    path: (i) => `/r${i}`,
    request: '{}',
    responses: '{ 200: Item }',
    handler: "(c) => c.json({ id: 1, name: 'x' }, 200)",
    input: '',
    hono: "(c) => c.json({ id: 1, name: 'x' }, 200)",
    honoPath: (i) => `.r${i}.$get`,
  },
  {
    method: 'GET',
    path: (i) => `/r${i}/:id`,
    request: '{ params: Id }',
    responses: '{ 200: Item, 404: null }',
    handler: "(c) => (c.valid('params').id === '0' ? c.body(null, 404) : c.json({ id: 1, name: c.valid('params').id }, 200))",
    input: "{ param: { id: '1' } }",
    hono: "validator('param', (v) => Id.parse(v)), (c) => c.json({ id: 1, name: c.req.valid('param').id }, 200)",
    honoPath: (i) => `.r${i}[':id'].$get`,
  },
  {
    method: 'POST',
    path: (i) => `/r${i}/:org/users/:user`,
    request: '{ json: NewItem }',
    responses: '{ 201: Item }',
    handler: "(c) => c.json({ id: 1, name: c.valid('json').name }, 201)",
    input: "{ param: { org: 'o', user: 'u' }, json: { name: 'n' } }",
    hono: "validator('json', (v) => NewItem.parse(v)), (c) => c.json({ id: 1, name: c.req.valid('json').name }, 201)",
    honoPath: (i) => `.r${i}[':org'].users[':user'].$post`,
  },
  {
    method: 'GET',
    path: (i) => `/r${i}/:n{[0-9]+}`,
    request: '{ query: Query }',
    responses: '{ 200: Item }',
    handler: "(c) => c.json({ id: 1, name: c.valid('query').q ?? '' }, 200)",
    input: "{ param: { n: '1' }, query: { q: 'x' } }",
    hono: "validator('query', (v) => Query.parse(v)), (c) => c.json({ id: 1, name: c.req.valid('query').q ?? '' }, 200)",
    honoPath: (i) => `.r${i}[':n{[0-9]+}'].$get`,
  },
  {
    method: 'GET',
    path: (i) => `/r${i}/:version?`,
    request: '{}',
    responses: '{ 200: Item }',
    handler: "(c) => c.json({ id: 1, name: c.req.param('version') ?? 'latest' }, 200)",
    input: "{ param: { version: 'v1' } }",
    hono: "(c) => c.json({ id: 1, name: c.req.param('version') ?? 'latest' }, 200)",
    honoPath: (i) => `.r${i}[':version?'].$get`,
  },
  {
    method: 'DELETE',
    path: (i) => `/r${i}/:a/:b/:c`,
    request: '{}',
    responses: '{ 204: null }',
    handler: '(c) => c.body(null, 204)',
    input: "{ param: { a: 'a', b: 'b', c: 'c' } }",
    hono: '(c) => c.body(null, 204)',
    honoPath: (i) => `.r${i}[':a'][':b'][':c'].$delete`,
  },
];

/** Rove's client takes `params` where Hono's takes `param`. */
const roveInput = (input: string) => input.replace('param:', 'params:');

/** n declared routes, implemented on an app, and a client calling every one. */
export function contractApp(n: number): string {
  const decls: string[] = [];
  const handlers: string[] = [];
  const calls: string[] = [];
  for (let i = 0; i < n; i++) {
    const s = SHAPES[i % SHAPES.length];
    decls.push(`  r${i}: route({ method: '${s.method}', path: '${s.path(i)}', request: ${s.request}, responses: ${s.responses} }),`);
    handlers.push(`  r${i}: ${s.handler},`);
    calls.push(`  { const res = await client['${s.method} ${s.path(i)}'](${roveInput(s.input)}); if (res.ok) void res.data; }`);
  }
  return `import { App } from 'rove';
import { createClient, implement, route } from 'rove/contract';
import { z } from 'zod';
${SCHEMAS}
export const api = {
${decls.join('\n')}
};
export const app = new App();
implement(app, api, {
${handlers.join('\n')}
});
const client = createClient<typeof api>('http://localhost');
export async function callAll(): Promise<void> {
${calls.join('\n')}
}
`;
}

/** The same routes as one chained Hono app (what `hc` needs), and an `hc` client calling every one. */
export function honoRpcApp(n: number): string {
  const chain: string[] = [];
  const calls: string[] = [];
  for (let i = 0; i < n; i++) {
    const s = SHAPES[i % SHAPES.length];
    chain.push(`  .${s.method.toLowerCase()}('${s.path(i)}', ${s.hono})`);
    calls.push(`  { const res = await client${s.honoPath(i)}(${s.input}); if (res.ok) void (await res.json()); }`);
  }
  return `import { Hono } from 'hono';
import { hc } from 'hono/client';
import { validator } from 'hono/validator';
import { z } from 'zod';
${SCHEMAS}
export const app = new Hono()
${chain.join('\n')};
const client = hc<typeof app>('http://localhost');
export async function callAll(): Promise<void> {
${calls.join('\n')}
}
`;
}

/** The import-only files the figures are read against. */
export const CONTRACT_HEADS = {
  'rove-contract':
    "import { App } from 'rove';\nimport { createClient, implement, route } from 'rove/contract';\nimport { z } from 'zod';\nexport { App, createClient, implement, route, z };",
  'hono-rpc':
    "import { Hono } from 'hono';\nimport { hc } from 'hono/client';\nimport { validator } from 'hono/validator';\nimport { z } from 'zod';\nexport { Hono, hc, validator, z };",
};
