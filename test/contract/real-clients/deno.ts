import type { App } from 'rove';
import { serve } from 'rove/deno';
import { makeApp } from './app.ts';

serve(makeApp() as unknown as App, { port: Number(Deno.env.get('PORT') ?? 8000), hostname: Deno.env.get('HOST') ?? '127.0.0.1' });
