// Request spans and duration metrics printed by the OpenTelemetry SDK's console exporters.
//   (the SDK packages are devDependencies here; in your app, install @opentelemetry/sdk-trace-base and sdk-metrics)
//   node --conditions=source --import tsx examples/otel/node.ts
//   curl localhost:8000/users/42

import { ConsoleMetricExporter, MeterProvider, PeriodicExportingMetricReader } from '@opentelemetry/sdk-metrics';
import { BasicTracerProvider, ConsoleSpanExporter, SimpleSpanProcessor } from '@opentelemetry/sdk-trace-base';
import { App } from 'rove';
import { serve } from 'rove/node';
import { otel } from 'rove/otel';

const tracerProvider = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(new ConsoleSpanExporter())] });
const meterProvider = new MeterProvider({
  readers: [new PeriodicExportingMetricReader({ exporter: new ConsoleMetricExporter(), exportIntervalMillis: 5000 })],
});

const app = new App();
app.get('/users/:id', (c) => c.json({ id: c.req.param('id') }));
app.get('/boom', () => {
  throw new Error('this becomes an exception event on the span');
});

otel(app, { tracer: tracerProvider.getTracer('rove-example'), meter: meterProvider.getMeter('rove-example') });

// Flush what is buffered before the process ends.
app.on('server:shutdown', () => Promise.all([tracerProvider.shutdown(), meterProvider.shutdown()]));

serve(app, { port: Number(process.env.PORT ?? 8000), hostname: process.env.HOST ?? '127.0.0.1' });
