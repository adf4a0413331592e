// The Hono bench app (bench/hono) for the tracing bench, on Node, Deno or Bun: with
// BENCH_TRACING=sdk, behind @hono/otel's middleware under the SDK of sdk.ts; else as it is.
import { httpInstrumentationMiddleware } from '@hono/otel';
import { Hono } from 'hono';
import { app } from '../hono/app.ts';
import { exporter, startTracingSdk } from './sdk.ts';

const env = (name: string): string | undefined => (globalThis as { process?: { env: Record<string, string | undefined> } }).process?.env[name];
const traced = env('BENCH_TRACING') === 'sdk';
if (traced) startTracingSdk();
// The middleware must come before the routes: a parent app with it, and the bench app mounted.
const served: Hono = traced ? new Hono().use(httpInstrumentationMiddleware()).route('/', app) : (app as unknown as Hono);
served.get('/__spans', (c) => c.json({ exported: exporter.exported }));

const port = Number(env('PORT') ?? 8000);
const runtime = globalThis as { Deno?: { serve(o: object, h: (r: Request) => Response | Promise<Response>): unknown }; Bun?: { serve(o: object): unknown } };
if (runtime.Deno !== undefined) runtime.Deno.serve({ port, hostname: '127.0.0.1', onListen() {} }, served.fetch);
else if (runtime.Bun !== undefined) runtime.Bun.serve({ port, hostname: '127.0.0.1', fetch: served.fetch });
else (await import('@hono/node-server')).serve({ fetch: served.fetch, port, hostname: '127.0.0.1' });
