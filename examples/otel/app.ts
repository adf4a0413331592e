// A traced app: the same routes on every runtime. Its spans form one tree per request:
//   GET /api/users/:id (server)
//   ├─ middleware audit
//   │  └─ handler (the route's handler)
//   │     ├─ db.query (the handler's own span)
//   │     └─ GET (client: a fetch to another service, which gets the trace in `traceparent`)
//   └─ …
import { context, propagation, SpanKind, SpanStatusCode, trace } from '@opentelemetry/api';
import { App, type Context, type Next } from 'rove';
import { otel } from 'rove/otel';
import { tasks, taskTrigger } from 'rove/tasks';

export interface TracedAppOptions {
  /** Where `/api/users/:id` sends its downstream request (another service). */
  downstream?: string;
  /** The runtime traces fetch itself (Deno's OTEL_DENO): no client span of our own. */
  fetchTraced?: boolean;
}

const tracer = trace.getTracer('example');

/** A named middleware: its span is `middleware audit`. */
async function audit(c: Context, next: Next): Promise<void> {
  await next();
  c.header('x-audited', '1');
}

export function createTracedApp(options: TracedAppOptions = {}): App {
  const jobs = tasks().cron('report', '0 * * * *', async (t) => {
    await tracer.startActiveSpan('report.build', async (span) => {
      await new Promise((r) => setTimeout(r, 5));
      span.end();
    });
    t.waitUntil(new Promise((r) => setTimeout(r, 5)));
  });
  const app = new App({ tasks: jobs });
  otel(app, { middlewareSpans: true });
  app.use(audit);

  const api = new App();
  api.get('/users/:id', async (c) => {
    // The handler's own span: a child of the request span, through the active context.
    const user = await tracer.startActiveSpan('db.query', async (span) => {
      span.setAttribute('db.query.text', 'SELECT * FROM users WHERE id = $1');
      await new Promise((r) => setTimeout(r, 5));
      span.end();
      return { id: c.req.param('id') };
    });
    if (options.downstream !== undefined) {
      if (options.fetchTraced) await (await fetch(options.downstream)).arrayBuffer();
      else await callDownstream(options.downstream);
    }
    return c.json(user);
  });
  app.route('/api', api);

  app.get('/boom', () => {
    throw new Error('this becomes an exception event on the span');
  });
  app.get('/later', (c) => {
    c.executionCtx.waitUntil(new Promise((r) => setTimeout(r, 20)));
    return c.text('answered; the work goes on');
  });
  app.get('/health', (c) => c.text('ok'));
  app.get('/__tasks', taskTrigger(jobs));
  return app;
}

/** A fetch under a CLIENT span, with the trace in `traceparent` (what fetch instrumentation does). */
async function callDownstream(url: string): Promise<void> {
  await tracer.startActiveSpan('GET', { kind: SpanKind.CLIENT, attributes: { 'http.request.method': 'GET', 'url.full': url } }, async (span) => {
    const headers: Record<string, string> = {};
    propagation.inject(context.active(), headers);
    try {
      const res = await fetch(url, { headers });
      span.setAttribute('http.response.status_code', res.status);
      await res.arrayBuffer();
    } catch (error) {
      span.setStatus({ code: SpanStatusCode.ERROR });
      throw error;
    } finally {
      span.end();
    }
  });
}
