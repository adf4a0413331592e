/**
 * rove/otel: request events as OpenTelemetry spans and duration metrics,
 * through @opentelemetry/api (an optional peer dependency). Register an SDK
 * (a TracerProvider and a MeterProvider) as usual; without one the API is a
 * no-op and this costs one listener call per request.
 *
 * Spans are recorded when a request completes, with its real start and end
 * time, so they need no async context propagation and work the same on Node,
 * Deno, Bun and Workers. The flip side: a span is not the active span while
 * the handler runs, so spans a handler starts are not its children.
 */
import {
  type Attributes,
  type Meter,
  metrics,
  propagation,
  ROOT_CONTEXT,
  SpanKind,
  SpanStatusCode,
  type TextMapGetter,
  type Tracer,
  trace,
} from '@opentelemetry/api';
import type { Listener, RequestMetadata, RoveEvent } from '../core/events.ts';

export interface OtelOptions {
  /** Default: `trace.getTracer('rove')` from the globally registered provider. */
  tracer?: Tracer;
  /** Default: `metrics.getMeter('rove')`. */
  meter?: Meter;
  /** Record spans (default true). */
  spans?: boolean;
  /** Record the `http.server.request.duration` histogram (default true). */
  metrics?: boolean;
  /** Continue the caller's trace from its `traceparent` (through the registered propagator; default true). */
  propagate?: boolean;
}

/** An App, or its EventBus: only `on` is used. */
interface Observable {
  on(kind: 'request:complete', listener: Listener<'request:complete'>): () => void;
}

const getter: TextMapGetter<RequestMetadata> = {
  get: (carrier, key) => carrier.header(key),
  keys: () => [],
};

// Buckets the semantic conventions advise for http.server.request.duration (seconds).
const BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.075, 0.1, 0.25, 0.5, 0.75, 1, 2.5, 5, 7.5, 10];

/**
 * Turn an app's request events into spans and duration metrics.
 * Returns the function that stops it.
 */
export function otel(app: Observable, options: OtelOptions = {}): () => void {
  const tracer = options.spans === false ? undefined : (options.tracer ?? trace.getTracer('rove'));
  const duration =
    options.metrics === false
      ? undefined
      : (options.meter ?? metrics.getMeter('rove')).createHistogram('http.server.request.duration', {
          unit: 's',
          description: 'Duration of HTTP server requests.',
          advice: { explicitBucketBoundaries: BUCKETS },
        });
  const propagate = options.propagate !== false;

  return app.on('request:complete', (event: RoveEvent<'request:complete'>) => {
    const m = event.metadata;
    const errorType = m.status >= 500 ? String(m.status) : undefined;
    if (duration !== undefined) {
      const labels: Attributes = { 'http.request.method': m.method, 'http.response.status_code': m.status };
      if (m.route !== null) labels['http.route'] = m.route;
      if (errorType !== undefined) labels['error.type'] = errorType;
      duration.record(m.durationMs / 1000, labels);
    }
    if (tracer === undefined) return;
    const attributes: Attributes = {
      'http.request.method': m.method,
      'url.path': m.path,
      'http.response.status_code': m.status,
    };
    if (m.route !== null) attributes['http.route'] = m.route;
    const agent = m.userAgent;
    if (agent !== undefined) attributes['user_agent.original'] = agent;
    const client = m.clientAddress;
    if (client !== undefined) attributes['client.address'] = client;
    const requestSize = m.requestSize;
    if (requestSize !== undefined) attributes['http.request.body.size'] = requestSize;
    const responseSize = m.responseSize;
    if (responseSize !== undefined) attributes['http.response.body.size'] = responseSize;
    if (errorType !== undefined) attributes['error.type'] = errorType;
    const parent = propagate ? propagation.extract(ROOT_CONTEXT, m, getter) : ROOT_CONTEXT;
    const end = event.timestamp;
    const span = tracer.startSpan(
      m.route === null ? m.method : `${m.method} ${m.route}`,
      { kind: SpanKind.SERVER, startTime: end - m.durationMs, attributes },
      parent,
    );
    // Server spans mark 5xx as errors; a 4xx is the client's.
    if (m.status >= 500) {
      span.setStatus({ code: SpanStatusCode.ERROR });
      if (m.error instanceof Error) span.recordException(m.error, end);
    }
    span.end(end);
  });
}
