// Deno has no server timeout to set (see the README): PROBE_HEADERS_TIMEOUT_MS is not read here.
import { serve } from 'rove/deno';
import { makeApp, probeOptions } from './app.ts';

const env = (name: string) => Deno.env.get(name);
serve(makeApp(probeOptions(env)), { port: Number(env('PORT') ?? 8000), hostname: env('HOST') ?? '127.0.0.1' });
