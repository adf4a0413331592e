import { serve } from 'rove/node';
import { makeApp, probeOptions, serveTimeouts } from './app.ts';

const env = (name: string) => process.env[name];
serve(makeApp(probeOptions(env)), { port: Number(env('PORT') ?? 8000), hostname: env('HOST') ?? '127.0.0.1', ...serveTimeouts(env) });
