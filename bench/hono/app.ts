// The bench routes written in idiomatic Hono: its built-in middleware where it
// has one (request-id, powered-by, jwt decode), hono/html for the pages and
// Hono's validator with the shared zod schema.
import { Hono, type MiddlewareHandler } from 'hono';
import { html } from 'hono/html';
import { decode } from 'hono/jwt';
import { poweredBy } from 'hono/powered-by';
import { requestId } from 'hono/request-id';
import { validator } from 'hono/validator';
import { RateLimiter, RingLog } from '../shared/chain.ts';
import { cpuWork, fortunesForRequest, nestedUser, POWERED_BY } from '../shared/fixtures.ts';
import { FILTER_ITEMS, formatCurrency, formatDate } from '../shared/html.ts';
import { paramsSchema, validationProblem } from '../shared/schema.ts';

type Env = { Variables: { requestId: string; claims: Record<string, unknown> } };

export const app = new Hono<Env>();
// The entries add the app-layer routes (addAppLayer), with the runtime's serveStatic.

app.get('/test', (c) => c.json({ hello: 'world!' }));
app.get('/text', (c) => c.text('Hello world'));
app.get('/test-cpu', (c) => c.json({ hello: 'cpu', value: cpuWork() }));
app.get('/json-nested', (c) => c.json(nestedUser()));

app.get('/test-view', (c) => c.html(html`Hello ${'World'}.`));
const partial = (data: { name: string }) => html`Hello ${data.name}.`;
app.get('/test-view-include', (c) => c.html(html`${partial({ name: 'Nea' })}`));
const ITEMS = Array.from({ length: 50 }, (_, i) => i);
app.get('/test-view-each-meta', (c) =>
  c.html(html`${ITEMS.map((item, i, all) => html`(${i}/${all.length} ${i === 0 ? 'F' : '-'}${i === all.length - 1 ? 'L' : '-'}=${item});`)}`),
);
app.get('/test-view-filter', (c) =>
  c.html(html`<ul>${FILTER_ITEMS.map((item) => html`<li>${item.name}: ${formatDate(item.at)}, ${formatCurrency(item.price, 'EUR')}</li>`)}</ul>`),
);
app.get('/test-view-expr', (c) => {
  const data: { user?: { name?: string; isAdmin?: boolean } } = { user: { name: 'Nea', isAdmin: true } };
  return c.html(html`Hello ${data.user?.name ?? 'Guest'}.
${data.user?.isAdmin ? 'ADMIN' : 'USER'}
Sum=${1 + 2 * 3}`);
});
app.get('/fortunes', (c) =>
  c.html(
    html`<!DOCTYPE html><html><head><title>Fortunes</title></head><body><table><tr><th>id</th><th>message</th></tr>${fortunesForRequest().map(
      (f) => html`<tr><td>${f.id}</td><td>${f.message}</td></tr>`,
    )}</table></body></html>`,
  ),
);

app.post(
  '/params',
  validator('json', (value, c) => {
    const result = paramsSchema.safeParse(value);
    if (!result.success) return c.json(validationProblem(result.error.issues), 400, { 'content-type': 'application/problem+json' });
    return result.data;
  }),
  (c) => c.json(c.req.valid('json')),
);

app.get('/id/:id', (c) => {
  c.header('x-powered-by', POWERED_BY);
  return c.text(`${c.req.param('id')} ${c.req.query('name')}`);
});

app.post('/json', async (c) => c.json(await c.req.json()));

// /chain: five middleware layers, then the handler.
const log = new RingLog();
const limiter = new RateLimiter();
const logEntry: MiddlewareHandler<Env> = async (c, next) => {
  log.push({ t: Date.now(), method: c.req.method, path: c.req.path, id: c.get('requestId') });
  await next();
};
const jwtClaims: MiddlewareHandler<Env> = async (c, next) => {
  const auth = c.req.header('authorization');
  let claims: Record<string, unknown> | undefined;
  try {
    claims = auth?.startsWith('Bearer ') ? (decode(auth.slice(7)).payload as Record<string, unknown>) : undefined;
  } catch {
    claims = undefined;
  }
  if (!claims) return c.json({ title: 'Unauthorized', status: 401 }, 401);
  c.set('claims', claims);
  await next();
};
const rateLimit: MiddlewareHandler<Env> = async (c, next) => {
  if (!limiter.allow(String(c.get('claims').sub), Date.now())) return c.json({ title: 'Too Many Requests', status: 429 }, 429);
  await next();
};
app.use('/chain', requestId(), logEntry, jwtClaims, rateLimit, poweredBy({ serverName: POWERED_BY }));
app.get('/chain', (c) => c.json({ hello: 'chain', sub: c.get('claims').sub }));
