// Node: OTEL_EXPORTER_OTLP_ENDPOINT=http://localhost:4318 node --conditions=source --import tsx examples/otel/node.ts
// (Jaeger's all-in-one image listens on 4318), then curl localhost:8000/api/users/42.
// DOWNSTREAM_URL: a service /api/users/:id calls, carrying the trace in `traceparent`.
import { serve } from 'rove/node';
import { createTracedApp } from './app.ts';
import { startTracing } from './tracing.ts';

// Before the app: the tracer provider and the context manager are global.
const provider = startTracing(process.env.OTEL_EXPORTER_OTLP_ENDPOINT ?? 'http://localhost:4318', process.env.OTEL_SERVICE_NAME);
const app = createTracedApp({ downstream: process.env.DOWNSTREAM_URL });
// Spans still buffered are sent before the process ends.
app.on('server:shutdown', () => provider.shutdown());
serve(app, { port: Number(process.env.PORT ?? 8000), hostname: process.env.HOST ?? '127.0.0.1' });
