// rove/otel: request events become SERVER spans and a duration histogram.

import {
  type Attributes,
  type Context,
  type Meter,
  propagation,
  ROOT_CONTEXT,
  SpanKind,
  type SpanOptions,
  SpanStatusCode,
  type TextMapPropagator,
  type TimeInput,
  type Tracer,
  trace,
} from '@opentelemetry/api';
import { afterEach, describe, expect, it } from 'vitest';
import { App } from '../../src/index.ts';
import { otel } from '../../src/otel/index.ts';

interface Recorded {
  name: string;
  options: SpanOptions;
  parent: Context | undefined;
  status?: { code: SpanStatusCode };
  exceptions: unknown[];
  end?: TimeInput;
}

function fakeTracer() {
  const spans: Recorded[] = [];
  const tracer = {
    startSpan(name: string, options: SpanOptions = {}, parent?: Context) {
      const rec: Recorded = { name, options, parent, exceptions: [] };
      spans.push(rec);
      return {
        setStatus(s: { code: SpanStatusCode }) {
          rec.status = s;
          return this;
        },
        recordException(e: unknown) {
          rec.exceptions.push(e);
        },
        end(t?: TimeInput) {
          rec.end = t;
        },
      };
    },
  } as unknown as Tracer;
  return { tracer, spans };
}

function fakeMeter() {
  const records: { value: number; attributes: Attributes }[] = [];
  const created: { name: string; options: unknown }[] = [];
  const meter = {
    createHistogram(name: string, options: unknown) {
      created.push({ name, options });
      return { record: (value: number, attributes: Attributes) => void records.push({ value, attributes }) };
    },
  } as unknown as Meter;
  return { meter, records, created };
}

function makeApp() {
  const app = new App();
  app.get('/users/:id', (c) => c.json({ id: c.req.param('id') }));
  app.get('/boom', () => {
    throw new Error('kaboom');
  });
  return app;
}

describe('rove/otel', () => {
  afterEach(() => propagation.disable());

  it('a request becomes a SERVER span named by method and route, with semantic-convention attributes', async () => {
    const app = makeApp();
    const { tracer, spans } = fakeTracer();
    const { meter } = fakeMeter();
    otel(app, { tracer, meter });
    const handle = app.bind({ address: () => '198.51.100.7' });
    await handle(new Request('http://localhost/users/5', { headers: { 'user-agent': 'ua/1' } }), {}, undefined);
    expect(spans).toHaveLength(1);
    const span = spans[0];
    expect(span.name).toBe('GET /users/:id');
    expect(span.options.kind).toBe(SpanKind.SERVER);
    expect(span.options.attributes).toMatchObject({
      'http.request.method': 'GET',
      'http.route': '/users/:id',
      'url.path': '/users/5',
      'http.response.status_code': 200,
      'user_agent.original': 'ua/1',
      'client.address': '198.51.100.7',
    });
    expect(span.status).toBeUndefined();
    // Start and end are the request's own times, in epoch milliseconds.
    expect(typeof span.options.startTime).toBe('number');
    expect(span.end as number).toBeGreaterThanOrEqual(span.options.startTime as number);
  });

  it('a 5xx marks the span as an error and records the exception', async () => {
    const app = makeApp();
    const { tracer, spans } = fakeTracer();
    otel(app, { tracer, metrics: false });
    await app.fetch(new Request('http://localhost/boom'));
    expect(spans[0].status).toEqual({ code: SpanStatusCode.ERROR });
    expect((spans[0].exceptions[0] as Error).message).toBe('kaboom');
    expect(spans[0].options.attributes).toMatchObject({ 'error.type': '500' });
  });

  it('a 404 is named by method alone and is not a server error', async () => {
    const app = makeApp();
    const { tracer, spans } = fakeTracer();
    otel(app, { tracer, metrics: false });
    await app.fetch(new Request('http://localhost/nowhere'));
    expect(spans[0].name).toBe('GET');
    expect(spans[0].status).toBeUndefined();
  });

  it('records http.server.request.duration in seconds with low-cardinality attributes', async () => {
    const app = makeApp();
    const { meter, records, created } = fakeMeter();
    otel(app, { meter, spans: false });
    await app.fetch(new Request('http://localhost/users/9'));
    expect(created[0]).toMatchObject({ name: 'http.server.request.duration', options: { unit: 's' } });
    expect(records).toHaveLength(1);
    expect(records[0].value).toBeGreaterThanOrEqual(0);
    expect(records[0].value).toBeLessThan(5);
    expect(records[0].attributes).toEqual({ 'http.request.method': 'GET', 'http.response.status_code': 200, 'http.route': '/users/:id' });
  });

  it("continues the caller's trace through the registered propagator", async () => {
    const app = makeApp();
    const { tracer, spans } = fakeTracer();
    const seenHeaders: (string | undefined)[] = [];
    const propagator: TextMapPropagator = {
      inject() {},
      extract(context, carrier, getter) {
        seenHeaders.push(getter.get(carrier, 'traceparent') as string | undefined);
        return trace.setSpanContext(context, { traceId: '0af7651916cd43dd8448eb211c80319c', spanId: 'b7ad6b7169203331', traceFlags: 1, isRemote: true });
      },
      fields: () => ['traceparent'],
    };
    propagation.setGlobalPropagator(propagator);
    otel(app, { tracer, metrics: false });
    await app.fetch(new Request('http://localhost/users/1', { headers: { traceparent: '00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01' } }));
    expect(seenHeaders).toEqual(['00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01']);
    expect(trace.getSpanContext(spans[0].parent!)?.traceId).toBe('0af7651916cd43dd8448eb211c80319c');
  });

  it('the returned function stops it', async () => {
    const app = makeApp();
    const { tracer, spans } = fakeTracer();
    const stop = otel(app, { tracer, metrics: false });
    stop();
    await app.fetch(new Request('http://localhost/users/1'));
    expect(spans).toHaveLength(0);
    expect(app.events.observing).toBe(false);
  });

  it('works with the no-op API when no SDK is registered', async () => {
    const app = makeApp();
    otel(app);
    const res = await app.fetch(new Request('http://localhost/users/1'));
    expect(res.status).toBe(200);
    expect(ROOT_CONTEXT).toBeDefined();
  });
});
