// The Rove bench app (examples/bench) for the tracing bench, on Node, Deno or Bun. BENCH_TRACING:
// `sdk`, traced by otel(app) under the SDK of sdk.ts; `api`, otel(app) with no SDK registered (the
// API's no-ops); `off`, as it is.
import { createBenchApp } from '../../examples/bench/app.ts';
import { otel } from '../../src/otel/index.ts';
import { exporter, startTracingSdk } from './sdk.ts';

const env = (name: string): string | undefined => (globalThis as { process?: { env: Record<string, string | undefined> } }).process?.env[name];
const mode = env('BENCH_TRACING');
if (mode === 'sdk') startTracingSdk();
const app = createBenchApp();
if (mode === 'sdk' || mode === 'api') otel(app, JSON.parse(env('BENCH_OTEL_OPTIONS') ?? '{}'));
// How many spans the SDK exported: the bench checks it grows, so a traced run really traced.
app.get('/__spans', (c) => c.json({ exported: exporter.exported }));

const port = Number(env('PORT') ?? 8000);
const runtime = globalThis as { Deno?: unknown; Bun?: unknown };
if (runtime.Deno !== undefined) (await import('../../adapters/deno/index.ts')).serve(app, { port, hostname: '127.0.0.1', onListen: () => {} });
else if (runtime.Bun !== undefined) (await import('../../adapters/bun/index.ts')).serve(app, { port, hostname: '127.0.0.1', onListen: () => {} });
else (await import('../../adapters/node/index.ts')).serve(app, { port, hostname: '127.0.0.1', onListen: () => {} });
