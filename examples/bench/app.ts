// The load-test app (docs/benchmarks/README.md), written once with Rove and run
// unchanged on every runtime by the entries beside it. bench/hono and
// bench/raw hold the same routes for comparison.
//
// Scenarios whose Rove feature has not landed yet answer 501 naming it, so
// the runner reports them as failed instead of measuring something else.

import { decodeJwtPayload, RateLimiter, RingLog, requestId } from '../../bench/shared/chain.ts';
import { cpuWork, fortunesForRequest, nestedUser, POWERED_BY } from '../../bench/shared/fixtures.ts';
import { FILTER_DATE, FILTER_ITEMS, formatCurrency } from '../../bench/shared/html.ts';
import { installListenerToggle } from '../../bench/shared/listener-toggle.ts';
import { paramsSchema } from '../../bench/shared/schema.ts';
import { App, validate } from '../../src/index.ts';
import { createThreadPool } from '../../src/threads/index.ts';
import { createViews } from '../../src/views/index.ts';
import { type AppLayerOptions, addAppLayer } from './app-layer.ts';
import { templates } from './views.ts';

type Vars = { requestId: string; claims: Record<string, unknown> };

export interface BenchAppOptions {
  /** Attach one empty event listener (the `listener` scenario: the cost of observability). */
  listener?: boolean;
  /** Give the app a thread pool (the `test-worker` scenario); without one /test-worker answers 503. */
  threads?: boolean;
  /** The app-layer scenarios' runtime parts (serveStatic). */
  appLayer?: AppLayerOptions;
}

const ITEMS = Array.from({ length: 50 }, (_, i) => i);

function notYet(feature: string) {
  return { title: 'Not Implemented', status: 501, detail: `${feature} is not available in this Rove build yet` };
}

export function createBenchApp(options: BenchAppOptions = {}) {
  // The test-view-filter scenario's currency filter; dates use the built-in one (in en-US).
  const views = createViews({ templates, locale: 'en-US', filters: { currency: (v, code) => formatCurrency(Number(v), String(code)) } });
  const threads = options.threads
    ? createThreadPool({
        // A function: on Workers import.meta.url is undefined; there the pool runs tasks inline.
        module: () => new URL('./tasks.ts', import.meta.url),
        load: () => import('./tasks.ts'),
        // The default profile keeps 1,000 requests in flight (100 connections × 10 pipelined):
        // the queue must hold them all, or the bench measures 503s instead of the pool.
        maxQueue: 4096,
      })
    : undefined;
  const app = new App<{ Variables: Vars }>({ views, ...(threads ? { threads } : {}) } as ConstructorParameters<typeof App>[0]);

  if (options.listener) installListenerToggle(app);

  app.get('/test', (c) => c.json({ hello: 'world!' }));
  app.get('/text', (c) => c.text('Hello world'));
  app.get('/test-cpu', (c) => c.json({ hello: 'cpu', value: cpuWork() }));

  app.get('/test-worker', async (c) => {
    const runner = (c as unknown as { threads?: { run(payload?: unknown, o?: { task: string }): Promise<number> } }).threads;
    if (!runner) return c.json(notYet('the thread pool'), 501);
    return c.json({ hello: 'worker', value: await runner.run(undefined, { task: 'cpu' }) });
  });

  app.get('/test-view', (c) => c.render('hello', { name: 'World' }));
  app.get('/test-view-include', (c) => c.render('include', { name: 'Nea' }));
  app.get('/test-view-each-meta', (c) => c.render('each-meta', { items: ITEMS }));
  app.get('/test-view-filter', (c) => c.render('filter', { items: FILTER_ITEMS, dateFormat: FILTER_DATE }));
  app.get('/test-view-expr', (c) => c.render('expr', { user: { name: 'Nea', isAdmin: true } }));
  app.get('/fortunes', (c) => c.render('fortunes', { fortunes: fortunesForRequest() }));

  app.get('/json-nested', (c) => c.json(nestedUser()));

  app.post('/params', validate('json', paramsSchema), (c) => c.json(c.valid('json')));

  app.get('/id/:id', (c) => {
    c.header('x-powered-by', POWERED_BY);
    return c.text(`${c.req.param('id')} ${c.req.query('name')}`);
  });

  app.post('/json', async (c) => c.json(await c.req.json()));

  // /chain: five middleware layers before the handler. Each works only before the handler, so it
  // returns next() instead of awaiting it: Rove's form for such middleware, with no promise hop.
  const log = new RingLog();
  const limiter = new RateLimiter();
  app.use('/chain', (c, next) => {
    const id = requestId(c.req.header('x-request-id'));
    c.set('requestId', id);
    c.header('x-request-id', id);
    return next();
  });
  app.use('/chain', (c, next) => {
    log.push({ t: Date.now(), method: c.req.method, path: c.path, id: c.get('requestId') });
    return next();
  });
  app.use('/chain', (c, next) => {
    const claims = decodeJwtPayload(c.req.header('authorization'));
    if (!claims) return c.json({ title: 'Unauthorized', status: 401 }, 401);
    c.set('claims', claims);
    return next();
  });
  app.use('/chain', (c, next) => {
    if (!limiter.allow(String(c.get('claims').sub), Date.now())) return c.json({ title: 'Too Many Requests', status: 429 }, 429);
    return next();
  });
  app.use('/chain', (c, next) => {
    c.header('x-powered-by', POWERED_BY);
    return next();
  });
  app.get('/chain', (c) => c.json({ hello: 'chain', sub: c.get('claims').sub }));

  addAppLayer(app, options.appLayer);
  return app;
}
