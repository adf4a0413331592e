// rove/otel in process, with the real SDK: an AsyncLocalStorage context manager and an
// in-memory exporter. What each span carries, and which span is whose parent.
import { context, propagation, ROOT_CONTEXT, SpanKind, SpanStatusCode, trace } from '@opentelemetry/api';
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks';
import { W3CTraceContextPropagator } from '@opentelemetry/core';
import { BasicTracerProvider, InMemorySpanExporter, type ReadableSpan, SimpleSpanProcessor } from '@opentelemetry/sdk-trace-base';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { fileRoutes } from '../../src/fs-routes/index.ts';
import { MANIFEST_FORMAT, MANIFEST_VERSION } from '../../src/fs-routes/manifest.ts';
import { App, HttpError, type Next } from '../../src/index.ts';
import { cors } from '../../src/middleware/cors/index.ts';
import { requestId } from '../../src/middleware/request-id/index.ts';
import { secureHeaders } from '../../src/middleware/secure-headers/index.ts';
import { otel } from '../../src/otel/index.ts';
import { tasks } from '../../src/tasks/index.ts';

const exporter = new InMemorySpanExporter();
const provider = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] });
const tracer = provider.getTracer('test');
const manager = new AsyncLocalStorageContextManager();

beforeAll(() => {
  context.setGlobalContextManager(manager);
  propagation.setGlobalPropagator(new W3CTraceContextPropagator());
});
afterAll(() => {
  context.disable();
  propagation.disable();
});
afterEach(() => exporter.reset());

const spans = () => exporter.getFinishedSpans();
const named = (name: string) => {
  const found = spans().find((s) => s.name === name);
  if (found === undefined)
    throw new Error(
      `no span ${name}; have ${spans()
        .map((s) => s.name)
        .join(', ')}`,
    );
  return found;
};
const parentOf = (s: ReadableSpan) => s.parentSpanContext?.spanId;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe('the request span', () => {
  it('is active in the handler: a span started after an await is its child', async () => {
    const app = new App();
    otel(app, { tracer, metrics: false });
    app.get('/users/:id', async (c) => {
      await sleep(2);
      await tracer.startActiveSpan('db.query', async (span) => {
        await sleep(2);
        span.end();
      });
      return c.json({ id: c.req.param('id'), trace: c.get('traceId') });
    });
    const res = await app.request('/users/5');
    const body = await res.json();
    const request = named('GET /users/:id');
    expect(request.kind).toBe(SpanKind.SERVER);
    expect(parentOf(named('db.query'))).toBe(request.spanContext().spanId);
    expect(body.trace).toBe(request.spanContext().traceId);
  });

  it('keeps concurrent requests apart', async () => {
    const app = new App();
    otel(app, { tracer, metrics: false });
    app.get('/n/:n', async (c) => {
      await sleep(Number(c.req.param('n')) % 7);
      return tracer.startActiveSpan(`work ${c.req.param('n')}`, async (span) => {
        await sleep(1);
        span.end();
        return c.text(c.req.param('n'));
      });
    });
    await Promise.all(Array.from({ length: 30 }, (_, i) => app.request(`/n/${i}`).then((r) => r.text())));
    const servers = spans().filter((s) => s.kind === SpanKind.SERVER);
    expect(servers).toHaveLength(30);
    for (let i = 0; i < 30; i++) {
      const work = named(`work ${i}`);
      const parent = servers.find((s) => s.spanContext().spanId === parentOf(work))!;
      expect(parent.attributes['url.path']).toBe(`/n/${i}`);
    }
  });

  it('carries the HTTP conventions: route, method, path, scheme, server, client, user agent, status', async () => {
    const app = new App();
    otel(app, { tracer, metrics: false });
    app.get('/users/:id', (c) => c.text('ok'));
    const handle = app.bind({ address: () => '198.51.100.7' });
    await handle(
      new Request('http://example.com:8443/users/5?q=1', { method: 'GET', headers: { host: 'example.com:8443', 'user-agent': 'ua/1' } }),
      {},
      undefined,
    );
    expect(named('GET /users/:id').attributes).toEqual({
      'http.request.method': 'GET',
      'url.path': '/users/5',
      'url.scheme': 'http',
      'http.route': '/users/:id',
      'server.address': 'example.com',
      'server.port': 8443,
      'user_agent.original': 'ua/1',
      'client.address': '198.51.100.7',
      'http.response.status_code': 200,
    });
  });

  it('carries the body sizes when they are declared', async () => {
    const app = new App();
    otel(app, { tracer, metrics: false });
    app.post('/echo', async (c) => c.body(await c.req.text(), 200, { 'content-length': '5' }));
    await app.request('/echo', { method: 'POST', body: 'hello', headers: { 'content-length': '5' } });
    expect(named('POST /echo').attributes).toMatchObject({ 'http.request.body.size': 5, 'http.response.body.size': 5 });
  });

  it('names the route of a mounted app, two levels down, by its full pattern', async () => {
    const app = new App();
    otel(app, { tracer, metrics: false });
    const v1 = new App().get('/users/:id', (c) => c.text('ok'));
    app.route('/api', new App().route('/v1', v1));
    await app.request('/api/v1/users/3');
    expect(named('GET /api/v1/users/:id').attributes['http.route']).toBe('/api/v1/users/:id');
  });

  it('names file routes by their pattern, under a prefix', async () => {
    const app = new App();
    otel(app, { tracer, metrics: false });
    fileRoutes(app, { format: MANIFEST_FORMAT, version: MANIFEST_VERSION, files: { 'posts/[slug].ts': { GET: (c: any) => c.text('post') } } } as never, {
      prefix: '/blog',
    });
    const res = await app.request('/blog/posts/hello');
    expect(await res.text()).toBe('post');
    expect(named('GET /blog/posts/:slug').attributes['http.route']).toBe('/blog/posts/:slug');
  });

  it('a request no route answers is named by its method, with no http.route and no error', async () => {
    const app = new App();
    otel(app, { tracer, metrics: false });
    app.get('/here', (c) => c.text('ok'));
    await app.request('/nowhere');
    await app.request('/here', { method: 'DELETE' });
    const [notFound, notAllowed] = spans();
    expect(notFound.name).toBe('GET');
    expect(notFound.attributes['http.route']).toBeUndefined();
    expect(notFound.attributes['http.response.status_code']).toBe(404);
    expect(notFound.status.code).toBe(SpanStatusCode.UNSET);
    expect(notAllowed.attributes['http.response.status_code']).toBe(405);
  });

  it('an unknown method is _OTHER, with the original kept apart', async () => {
    const app = new App();
    otel(app, { tracer, metrics: false });
    app.method('PURGE', '/cache', (c) => c.text('purged'));
    await app.request('/cache', { method: 'PURGE' });
    const span = named('_OTHER /cache');
    expect(span.attributes['http.request.method']).toBe('_OTHER');
    expect(span.attributes['http.request.method_original']).toBe('PURGE');
  });

  it("continues the caller's traceparent, and starts a new trace from a malformed one", async () => {
    const app = new App();
    otel(app, { tracer, metrics: false });
    app.get('/', (c) => c.text('ok'));
    await app.request('/', { headers: { traceparent: '00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01' } });
    await app.request('/', { headers: { traceparent: '00-zz-not-a-trace\u00ff' } });
    const [continued, fresh] = spans();
    expect(continued.spanContext().traceId).toBe('0af7651916cd43dd8448eb211c80319c');
    expect(parentOf(continued)).toBe('b7ad6b7169203331');
    expect(fresh.parentSpanContext).toBeUndefined();
  });
});

describe('failures', () => {
  it('an escaped error: status ERROR, error.type, an exception event, and a log line with the trace', async () => {
    const log = vi.spyOn(console, 'error').mockImplementation(() => {});
    try {
      const app = new App();
      otel(app, { tracer, metrics: false });
      app.get('/boom', async () => {
        await sleep(1);
        throw new TypeError('kaboom');
      });
      expect((await app.request('/boom')).status).toBe(500);
      const span = named('GET /boom');
      expect(span.status.code).toBe(SpanStatusCode.ERROR);
      expect(span.attributes['error.type']).toBe('TypeError');
      expect(span.attributes['http.response.status_code']).toBe(500);
      expect(span.events.map((e) => [e.name, e.attributes?.['exception.message']])).toEqual([['exception', 'kaboom']]);
      const { traceId, spanId } = span.spanContext();
      expect(log).toHaveBeenCalledTimes(1);
      expect(log.mock.calls[0][0]).toBe(`rove: GET /boom (trace ${traceId}, span ${spanId}) failed:`);
    } finally {
      log.mockRestore();
    }
  });

  it('an HttpError of 500 or more is typed by its status; a 4xx is not an error of the server', async () => {
    const log = vi.spyOn(console, 'error').mockImplementation(() => {});
    try {
      const app = new App();
      otel(app, { tracer, metrics: false });
      app.get('/busy', () => {
        throw new HttpError(503, 'later');
      });
      app.get('/bad', () => {
        throw new HttpError(400, 'no');
      });
      await app.request('/busy');
      await app.request('/bad');
      expect(named('GET /busy').attributes['error.type']).toBe('503');
      expect(named('GET /bad').status.code).toBe(SpanStatusCode.UNSET);
      expect(named('GET /bad').attributes['error.type']).toBeUndefined();
    } finally {
      log.mockRestore();
    }
  });
});

describe('middleware spans', () => {
  it('nest each middleware and the handler, named by function or by place', async () => {
    const app = new App();
    otel(app, { tracer, metrics: false, middlewareSpans: true });
    app.use(async function audit(_c, next: Next) {
      await next();
    });
    app.use((_c, next) => next());
    app.use('/admin', (_c, next) => next());
    app.get('/x', async (c) => {
      await tracer.startActiveSpan('own', async (span) => span.end());
      return c.text('x');
    });
    await app.request('/x');
    const request = named('GET /x');
    const outer = named('middleware audit');
    const second = named('middleware 2');
    const handler = named('handler /x');
    expect(parentOf(outer)).toBe(request.spanContext().spanId);
    expect(parentOf(second)).toBe(outer.spanContext().spanId);
    expect(parentOf(handler)).toBe(second.spanContext().spanId);
    expect(parentOf(named('own'))).toBe(handler.spanContext().spanId);
    // The /admin middleware is not in /x's chain.
    expect(spans()).toHaveLength(5);
  });

  it("names Rove's own middleware after their factories", async () => {
    const app = new App();
    otel(app, { tracer, metrics: false, middlewareSpans: true });
    app.use(requestId(), secureHeaders(), cors());
    app.get('/x', (c) => c.text('x'));
    await app.request('/x');
    expect(
      spans()
        .map((s) => s.name)
        .sort(),
    ).toEqual(['GET /x', 'handler /x', 'middleware cors', 'middleware requestId', 'middleware secureHeaders']);
  });

  it('a middleware that throws marks its own span', async () => {
    const log = vi.spyOn(console, 'error').mockImplementation(() => {});
    try {
      const app = new App();
      otel(app, { tracer, metrics: false, middlewareSpans: true });
      app.use(function guard() {
        throw new Error('refused');
      });
      app.get('/x', (c) => c.text('x'));
      await app.request('/x');
      expect(named('middleware guard').status.code).toBe(SpanStatusCode.ERROR);
      expect(named('GET /x').status.code).toBe(SpanStatusCode.ERROR);
    } finally {
      log.mockRestore();
    }
  });
});

describe('outside the request', () => {
  it("waitUntil work: a span under the handler's, ending when the work does", async () => {
    const app = new App();
    otel(app, { tracer, metrics: false });
    let finish!: () => void;
    app.get('/later', (c) => {
      c.executionCtx.waitUntil(new Promise<void>((r) => (finish = r)));
      return c.text('ok');
    });
    const kept: Promise<unknown>[] = [];
    await app.request('/later', undefined, {}, { waitUntil: (p) => kept.push(p) });
    expect(spans().map((s) => s.name)).toEqual(['GET /later']);
    finish();
    await Promise.all(kept);
    expect(parentOf(named('waitUntil'))).toBe(named('GET /later').spanContext().spanId);
  });

  it('a task: a root span, active while it runs, with its waitUntil work under it', async () => {
    const jobs = tasks().cron('cleanup', '0 3 * * *', async (t) => {
      await tracer.startActiveSpan('delete', async (span) => span.end());
      t.waitUntil(sleep(2));
    });
    const app = new App({ tasks: jobs });
    otel(app, { tracer, metrics: false });
    await context.with(trace.setSpan(ROOT_CONTEXT, tracer.startSpan('unrelated')), () => jobs.fire('cleanup', { scheduledTime: Date.UTC(2026, 0, 1, 3) }));
    const task = named('task cleanup');
    expect(task.parentSpanContext).toBeUndefined();
    expect(task.attributes).toEqual({ 'rove.task.name': 'cleanup', 'rove.task.cron': '0 3 * * *', 'rove.task.scheduled_time': '2026-01-01T03:00:00.000Z' });
    expect(parentOf(named('delete'))).toBe(task.spanContext().spanId);
    expect(parentOf(named('waitUntil'))).toBe(task.spanContext().spanId);
  });

  it('a failing task marks its span', async () => {
    const log = vi.spyOn(console, 'error').mockImplementation(() => {});
    try {
      const jobs = tasks().cron('flaky', '* * * * *', () => {
        throw new RangeError('nope');
      });
      otel(new App({ tasks: jobs }), { tracer, metrics: false });
      expect((await jobs.fire('flaky')).ok).toBe(false);
      expect(named('task flaky').status.code).toBe(SpanStatusCode.ERROR);
      expect(named('task flaky').attributes['error.type']).toBe('RangeError');
    } finally {
      log.mockRestore();
    }
  });
});

describe('where the platform or the set-up differs', () => {
  it("a server span the platform made (Deno's OTEL_DENO) is named after the route, not doubled", async () => {
    const app = new App();
    otel(app, { tracer, metrics: false });
    app.get('/users/:id', (c) => c.text(String(c.get('spanId'))));
    const platform = tracer.startSpan('GET', { kind: SpanKind.SERVER });
    const res = await context.with(trace.setSpan(ROOT_CONTEXT, platform), () => app.request('/users/1'));
    expect(await res.text()).toBe(platform.spanContext().spanId);
    platform.end();
    expect(spans()).toHaveLength(1);
    expect(spans()[0].name).toBe('GET /users/:id');
    expect(spans()[0].attributes['http.route']).toBe('/users/:id');
  });

  it('without async context (no context manager) the request span is still recorded, and is no parent', async () => {
    context.disable();
    try {
      const app = new App();
      otel(app, { tracer, metrics: false });
      app.get('/x', async (c) => {
        await tracer.startActiveSpan('own', async (span) => span.end());
        return c.text('x');
      });
      await app.request('/x');
      expect(named('GET /x').attributes['http.response.status_code']).toBe(200);
      expect(named('own').parentSpanContext).toBeUndefined();
    } finally {
      context.setGlobalContextManager(manager);
    }
  });

  it('with no SDK a request runs as untraced: synchronously, with no ids set, and no request listener', () => {
    const app = new App();
    otel(app); // the global providers: none registered here
    // The metrics API's no-op meter stays one: otel() does not listen for it.
    expect(app.events.observing).toBe(false);
    app.get('/x', (c) => c.text(String(c.get('traceId'))));
    const res = app.fetch(new Request('http://localhost/x'));
    expect(res).toBeInstanceOf(Response);
    return expect((res as Response).text()).resolves.toBe('undefined');
  });

  it('a chain that finishes synchronously still answers synchronously when traced', () => {
    const app = new App();
    otel(app, { tracer, metrics: false });
    app.get('/x', (c) => c.text('x'));
    expect(app.fetch(new Request('http://localhost/x'))).toBeInstanceOf(Response);
    expect(named('GET /x').attributes['http.response.status_code']).toBe(200);
  });

  it('the returned function stops it', async () => {
    const jobs = tasks().cron('t', '* * * * *', () => {});
    const app = new App({ tasks: jobs });
    const stop = otel(app, { tracer });
    app.get('/x', (c) => c.text('x'));
    stop();
    await app.request('/x');
    await jobs.fire('t');
    expect(spans()).toHaveLength(0);
    expect(app.events.observing).toBe(false);
  });
});
