// Bun: OTEL_EXPORTER_OTLP_ENDPOINT=http://localhost:4318 bun examples/otel/bun.ts
import { serve } from 'rove/bun';
import { createTracedApp } from './app.ts';
import { startTracing } from './tracing.ts';

const provider = startTracing(process.env.OTEL_EXPORTER_OTLP_ENDPOINT ?? 'http://localhost:4318', process.env.OTEL_SERVICE_NAME);
const app = createTracedApp({ downstream: process.env.DOWNSTREAM_URL });
app.on('server:shutdown', () => provider.shutdown());
serve(app, { port: Number(process.env.PORT ?? 8000), hostname: process.env.HOST ?? '127.0.0.1' });
