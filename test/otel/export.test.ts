// End to end with the real SDK and exporter: examples/otel runs on each runtime with
// @opentelemetry/sdk-trace-base, an AsyncLocalStorage context manager and
// @opentelemetry/exporter-trace-otlp-http, and sends its spans to a receiver this test runs on a
// loopback port. The test decodes what arrives and checks the tree of each request.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ReceivedSpan, type Receiver, startReceiver } from '../../dev/otlp-receiver.ts';
import { type Child, freePort, resolveBin, startChild, stopChild } from '../../dev/proc.ts';
import { type Running, type Runtime, start } from '../conformance/servers.ts';

const RUNTIMES: Runtime[] = ['node', 'deno', 'bun', 'workerd'];
const SERVER = 2;
const CLIENT = 3;
const ERROR = 2;

const childrenOf = (spans: ReceivedSpan[], parent: ReceivedSpan) => spans.filter((s) => s.traceId === parent.traceId && s.parentSpanId === parent.spanId);

describe.each(RUNTIMES)('traces exported over OTLP/HTTP on %s', (runtime) => {
  let receiver: Receiver;
  let server: Running;

  beforeAll(async () => {
    receiver = await startReceiver();
    const vars = { OTEL_EXPORTER_OTLP_ENDPOINT: receiver.url, DOWNSTREAM_URL: `${receiver.url}/downstream` };
    server = await start(runtime, 'examples/otel', '/health', vars, vars);
  }, 60_000);

  afterAll(async () => {
    await server?.stop();
    await receiver?.close();
  });

  const serverSpan = (route: string) => receiver.until((spans) => spans.find((s) => s.kind === SERVER && s.attributes['http.route'] === route));

  it("a handler's own span, and its fetch to another service, are children of the request span", async () => {
    const res = await fetch(`${server.url}/api/users/7`, { headers: { 'user-agent': 'rove-test' } });
    expect(await res.json()).toEqual({ id: '7' });

    const request = await serverSpan('/api/users/:id');
    expect(request.name).toBe('GET /api/users/:id');
    expect(request.parentSpanId).toBe('');
    expect(request.attributes).toMatchObject({
      'http.request.method': 'GET',
      'url.path': '/api/users/7',
      'http.response.status_code': 200,
      'user_agent.original': 'rove-test',
    });
    const middleware = await receiver.until((spans) => childrenOf(spans, request).find((s) => s.name === 'middleware audit'));
    const handler = await receiver.until((spans) => childrenOf(spans, middleware).find((s) => s.name === 'handler /api/users/:id'));
    const own = await receiver.until((spans) => {
      const kids = childrenOf(spans, handler);
      const query = kids.find((s) => s.name === 'db.query');
      const call = kids.find((s) => s.kind === CLIENT);
      return query && call ? { query, call } : undefined;
    });
    expect(own.query.attributes['db.query.text']).toContain('SELECT');
    // The downstream service got the same trace, with the client span as its parent.
    expect(receiver.traceparents).toContain(`00-${request.traceId}-${own.call.spanId}-01`);
    // A child starts and ends within the request span, give or take the 1 ms the SDK's clock
    // rounds each span's start to (sdk-trace-base takes it from Date.now()).
    const ms = 1_000_000n;
    expect(own.query.startNs + ms >= request.startNs && own.query.endNs <= request.endNs + ms).toBe(true);
  }, 30_000);

  it("continues the caller's trace from its traceparent", async () => {
    const traceId = '4bf92f3577b34da6a3ce929d0e0e4736';
    const parent = '00f067aa0ba902b7';
    await (await fetch(`${server.url}/health`, { headers: { traceparent: `00-${traceId}-${parent}-01` } })).text();
    const span = await receiver.until((spans) => spans.find((s) => s.kind === SERVER && s.traceId === traceId));
    expect(span.parentSpanId).toBe(parent);
    expect(span.name).toBe('GET /health');
  }, 30_000);

  it('an escaped error: status ERROR, error.type and an exception event, and the log line names the trace', async () => {
    const res = await fetch(`${server.url}/boom`);
    expect(res.status).toBe(500);
    await res.text();
    const span = await serverSpan('/boom');
    expect(span.status).toBe(ERROR);
    expect(span.attributes).toMatchObject({ 'http.response.status_code': 500, 'error.type': 'Error' });
    const exception = span.events.find((e) => e.name === 'exception');
    expect(exception?.attributes['exception.message']).toBe('this becomes an exception event on the span');
    await receiver.until(() => (server.child.output().includes(`(trace ${span.traceId}, span ${span.spanId}) failed:`) ? true : undefined), 5000);
  }, 30_000);

  it('waitUntil work gets a span in the request trace, ending after the response', async () => {
    await (await fetch(`${server.url}/later`)).text();
    const request = await serverSpan('/later');
    const work = await receiver.until((spans) => spans.find((s) => s.name === 'waitUntil' && s.traceId === request.traceId));
    expect(work.endNs > request.endNs).toBe(true);
  }, 30_000);

  it("a scheduled task's span is a root with its handler's spans under it", async () => {
    await (await fetch(`${server.url}/__tasks?name=report`)).text();
    const task = await receiver.until((spans) => spans.find((s) => s.name === 'task report'));
    expect(task.parentSpanId).toBe('');
    expect(task.attributes).toMatchObject({ 'rove.task.name': 'report', 'rove.task.cron': '0 * * * *' });
    const kids = await receiver.until((spans) => {
      const names = childrenOf(spans, task).map((s) => s.name);
      return names.includes('report.build') && names.includes('waitUntil') ? names : undefined;
    });
    expect(kids).toEqual(expect.arrayContaining(['report.build', 'waitUntil']));
  }, 30_000);
});

describe("Deno's built-in OpenTelemetry (OTEL_DENO=true, no SDK)", () => {
  let receiver: Receiver;
  let child: Child;
  let url: string;

  beforeAll(async () => {
    receiver = await startReceiver();
    const port = await freePort();
    url = `http://127.0.0.1:${port}`;
    child = startChild(resolveBin('deno'), ['run', '--allow-net', '--allow-env', '--allow-read', '--unstable-cron', 'examples/otel/deno-builtin.ts'], {
      PORT: String(port),
      HOST: '127.0.0.1',
      OTEL_DENO: 'true',
      OTEL_SERVICE_NAME: 'rove-deno',
      OTEL_EXPORTER_OTLP_ENDPOINT: receiver.url,
      OTEL_EXPORTER_OTLP_PROTOCOL: 'http/json',
      // Deno's batch processor exports every 5 s by default.
      OTEL_BSP_SCHEDULE_DELAY: '100',
      DOWNSTREAM_URL: `${receiver.url}/downstream`,
      NO_COLOR: '1',
      DENO_NO_UPDATE_CHECK: '1',
    });
    for (let i = 0; ; i++) {
      try {
        if ((await fetch(`${url}/health`)).ok) break;
      } catch {
        if (i > 300 || child.exited) throw new Error(`deno did not start:\n${child.output()}`);
        await new Promise((r) => setTimeout(r, 100));
      }
    }
  }, 60_000);

  afterAll(async () => {
    if (child) await stopChild(child);
    await receiver?.close();
  });

  it("names Deno's own server span after the route, makes no second one, and nests the handler's spans under it", async () => {
    await (await fetch(`${url}/api/users/7`)).text();
    const request = await receiver.until((spans) => spans.find((s) => s.kind === SERVER && s.attributes['url.path'] === '/api/users/7'));
    expect(request.name).toBe('GET /api/users/:id');
    expect(request.attributes['http.route']).toBe('/api/users/:id');
    expect(request.service).toBe('rove-deno');
    const tree = await receiver.until((spans) => {
      const middleware = childrenOf(spans, request).find((s) => s.name === 'middleware audit');
      const handler = middleware && childrenOf(spans, middleware).find((s) => s.name === 'handler /api/users/:id');
      const query = handler && childrenOf(spans, handler).find((s) => s.name === 'db.query');
      const call = handler && childrenOf(spans, handler).find((s) => s.kind === CLIENT);
      return query && call ? { call } : undefined;
    });
    expect(receiver.spans.filter((s) => s.kind === SERVER && s.traceId === request.traceId)).toHaveLength(1);
    // Deno's fetch span sends the trace on.
    expect(receiver.traceparents).toContain(`00-${request.traceId}-${tree.call.spanId}-01`);
  }, 30_000);

  it("an escaped error is an exception event on Deno's span, and the log line names it", async () => {
    await (await fetch(`${url}/boom`)).text();
    const span = await receiver.until((spans) => spans.find((s) => s.kind === SERVER && s.attributes['http.route'] === '/boom'));
    expect(span.status).toBe(ERROR);
    expect(span.events.map((e) => e.name)).toContain('exception');
    await receiver.until(() => (child.output().includes(`(trace ${span.traceId}, span ${span.spanId}) failed:`) ? true : undefined), 5000);
  }, 30_000);
});
