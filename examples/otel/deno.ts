// Deno: OTEL_EXPORTER_OTLP_ENDPOINT=http://localhost:4318 deno run -A examples/otel/deno.ts
// (the SDK from npm). For Deno's built-in telemetry instead, see deno-builtin.ts.
import { serve } from 'rove/deno';
import { createTracedApp } from './app.ts';
import { startTracing } from './tracing.ts';

const provider = startTracing(Deno.env.get('OTEL_EXPORTER_OTLP_ENDPOINT') ?? 'http://localhost:4318', Deno.env.get('OTEL_SERVICE_NAME'));
const app = createTracedApp({ downstream: Deno.env.get('DOWNSTREAM_URL') });
app.on('server:shutdown', () => provider.shutdown());
serve(app, { port: Number(Deno.env.get('PORT') ?? 8000), hostname: Deno.env.get('HOST') ?? '127.0.0.1' });
