/**
 * rove/otel: OpenTelemetry traces and metrics for an app, through @opentelemetry/api (an optional
 * peer dependency). Register an SDK (a TracerProvider, a context manager, a MeterProvider) as
 * usual; without one the API is a no-op and a request runs as it would untraced.
 *
 * Each request gets a server span that is the active span while its middleware and handler run,
 * so the spans they start (a database query, a `fetch` another instrumentation traces) are its
 * children. That needs the runtime's async context, which the SDK's context manager supplies
 * (AsyncLocalStorage on Node, Deno, Bun, and on Workers with `nodejs_compat`); without one the
 * span is still recorded, with its real start and end, but is not the parent of other spans.
 */
import { createNoopMeter, type Meter, metrics, type Tracer, trace } from '@opentelemetry/api';
import type { Handler } from '../core/compose.ts';
import type { Listener } from '../core/events.ts';
import type { TaskAround } from '../tasks/run.ts';
import { taskSpans } from './background.ts';
import { layerSpans } from './layer-spans.ts';
import { durationMetric } from './metrics.ts';
import { requestSpan } from './request-span.ts';

export interface OtelOptions {
  /** Default: `trace.getTracer('rove')` from the globally registered provider. */
  tracer?: Tracer;
  /** Default: `metrics.getMeter('rove')`, so register the MeterProvider before calling `otel()`. */
  meter?: Meter;
  /** Record spans (default true). */
  spans?: boolean;
  /** A span per middleware and handler, under the request span (default false). */
  middlewareSpans?: boolean;
  /** A span per `waitUntil` work and per scheduled task run (default true). */
  background?: boolean;
  /** Record the `http.server.request.duration` histogram (default true). */
  metrics?: boolean;
  /** Continue the caller's trace from its `traceparent` (through the registered propagator; default true). */
  propagate?: boolean;
}

/** What `otel()` uses of an App. */
export interface Traceable {
  on(kind: 'request:complete', listener: Listener<'request:complete'>): () => void;
  instrument(layers: (layers: Handler[], route: string | null) => Handler[]): unknown;
  readonly settings: { readonly tasks?: { instrument(around: TaskAround): unknown } | undefined };
}

/**
 * Trace an app's requests (and its scheduled tasks and `waitUntil` work), and record their
 * durations. Call it on the app you serve, before it serves; returns the function that stops it.
 *
 * Each span carries the HTTP conventions' attributes (`http.route` from the matched pattern,
 * mounted apps and file routes included), and a failed request's span has status ERROR,
 * `error.type` and an exception event. While a span is active, `c.get('traceId')` and
 * `c.get('spanId')` name it, and the default error log line carries both.
 *
 * @example
 * // node --import ./tracing.js server.js, where tracing.js starts the SDK (NodeSDK, or a
 * // BasicTracerProvider with an AsyncLocalStorageContextManager)
 * import { otel } from 'rove/otel';
 * const app = new App();
 * otel(app, { middlewareSpans: true });
 * app.get('/users/:id', async (c) => c.json(await db.user(c.req.param('id')))); // the query's span is a child
 */
export function otel(app: Traceable, options: OtelOptions = {}): () => void {
  const stops: (() => void)[] = [];
  if (options.spans !== false) {
    const tracer = options.tracer ?? trace.getTracer('rove');
    const spanOptions = { tracer, global: options.tracer === undefined, propagate: options.propagate !== false, background: options.background !== false };
    const perLayer = options.middlewareSpans === true;
    app.instrument((layers, route) => [requestSpan(route, spanOptions), ...(perLayer ? layerSpans(tracer, layers, route) : layers)]);
    stops.push(() => app.instrument((layers) => layers));
    const tasks = app.settings.tasks;
    if (tasks !== undefined && spanOptions.background) {
      tasks.instrument(taskSpans(tracer));
      stops.push(() => tasks.instrument((t, run) => run(t)));
    }
  }
  // The metrics API has no proxy: a meter taken before a MeterProvider is registered stays a no-op,
  // and listening for it would cost each request for nothing.
  const meter = options.meter ?? metrics.getMeter('rove');
  if (options.metrics !== false && meter !== createNoopMeter()) stops.push(app.on('request:complete', durationMetric(meter)));
  return () => {
    for (const stop of stops) stop();
  };
}
