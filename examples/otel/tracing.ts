// The OpenTelemetry SDK, set up the same way on Node, Deno, Bun and Workers (nodejs_compat):
// spans go to an OTLP/HTTP endpoint (a collector, Jaeger, Tempo, Honeycomb…), and an
// AsyncLocalStorage context manager makes the active span follow the request across awaits.
import { context, propagation, trace } from '@opentelemetry/api';
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks';
import { W3CTraceContextPropagator } from '@opentelemetry/core';
import { OTLPTraceExporter } from '@opentelemetry/exporter-trace-otlp-http';
import { resourceFromAttributes } from '@opentelemetry/resources';
import { BasicTracerProvider, BatchSpanProcessor } from '@opentelemetry/sdk-trace-base';

/**
 * Register a tracer provider that exports to `endpoint` (the collector's base URL: spans go to
 * `<endpoint>/v1/traces`). Returns it: call `forceFlush()` before a process or an invocation ends.
 */
export function startTracing(endpoint: string, serviceName = 'rove-example'): BasicTracerProvider {
  const provider = new BasicTracerProvider({
    resource: resourceFromAttributes({ 'service.name': serviceName }),
    spanProcessors: [new BatchSpanProcessor(new OTLPTraceExporter({ url: `${endpoint.replace(/\/$/, '')}/v1/traces` }), { scheduledDelayMillis: 200 })],
  });
  context.setGlobalContextManager(new AsyncLocalStorageContextManager());
  propagation.setGlobalPropagator(new W3CTraceContextPropagator());
  trace.setGlobalTracerProvider(provider);
  return provider;
}
