// rove/otel's duration histogram, read back through the real metrics SDK.
import { type DataPoint, type Histogram, MeterProvider, MetricReader } from '@opentelemetry/sdk-metrics';
import { describe, expect, it } from 'vitest';
import { App, HttpError } from '../../src/index.ts';
import { otel } from '../../src/otel/index.ts';

class Reader extends MetricReader {
  protected async onForceFlush(): Promise<void> {}
  protected async onShutdown(): Promise<void> {}
}

async function points(reader: Reader): Promise<DataPoint<Histogram>[]> {
  const { resourceMetrics } = await reader.collect();
  const metric = resourceMetrics.scopeMetrics.flatMap((s) => s.metrics).find((m) => m.descriptor.name === 'http.server.request.duration');
  return (metric?.dataPoints ?? []) as DataPoint<Histogram>[];
}

function setUp() {
  const reader = new Reader();
  const meter = new MeterProvider({ readers: [reader] }).getMeter('test');
  const app = new App();
  app.get('/users/:id', (c) => c.text('ok'));
  app.get('/boom', () => {
    throw new RangeError('no');
  });
  app.onError((e, c) => c.text('failed', e instanceof HttpError ? e.status : 500)); // and nothing logged
  otel(app, { meter, spans: false });
  return { app, reader };
}

describe('http.server.request.duration', () => {
  it('records seconds, by method, route and status', async () => {
    const { app, reader } = setUp();
    await app.request('/users/1');
    await app.request('/users/2');
    const [point] = await points(reader);
    expect(point.attributes).toEqual({ 'http.request.method': 'GET', 'http.response.status_code': 200, 'http.route': '/users/:id' });
    expect(point.value.count).toBe(2);
    expect(point.value.sum).toBeGreaterThanOrEqual(0);
    expect(point.value.sum).toBeLessThan(5);
  });

  it('types a failure by the error thrown', async () => {
    const { app, reader } = setUp();
    await app.request('/boom');
    const [point] = await points(reader);
    expect(point.attributes).toMatchObject({ 'http.response.status_code': 500, 'error.type': 'RangeError' });
  });

  it('keeps its series bounded: made-up methods are _OTHER, unrouted paths have no route', async () => {
    const { app, reader } = setUp();
    for (let i = 0; i < 50; i++) await app.request(`/nowhere/${i}`, { method: `M${i}` });
    const all = await points(reader);
    expect(all).toHaveLength(1);
    expect(all[0].attributes).toEqual({ 'http.request.method': '_OTHER', 'http.response.status_code': 404 });
    expect(all[0].value.count).toBe(50);
  });

  it('counts a request refused before routing (a malformed path)', async () => {
    const { app, reader } = setUp();
    expect((await app.request('/users/%E0%A4%A')).status).toBe(400);
    const [point] = await points(reader);
    expect(point.attributes['http.response.status_code']).toBe(400);
  });
});
