// Deno's built-in OpenTelemetry, no SDK: OTEL_DENO=true OTEL_SERVICE_NAME=my-app deno run -A examples/otel/deno-builtin.ts
// Deno makes the server span of each request and exports it (OTLP, to OTEL_EXPORTER_OTLP_ENDPOINT,
// http://localhost:4318 by default); otel(app) names it after the matched route and adds no
// second one. Spans started through @opentelemetry/api are children of it, and Deno traces
// fetch itself (a client span, and `traceparent` sent on).
import { serve } from 'rove/deno';
import { createTracedApp } from './app.ts';

const app = createTracedApp({ downstream: Deno.env.get('DOWNSTREAM_URL'), fetchTraced: true });
serve(app, { port: Number(Deno.env.get('PORT') ?? 8000), hostname: Deno.env.get('HOST') ?? '127.0.0.1' });
