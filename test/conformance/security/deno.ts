import { serve } from 'rove/deno';
import { makeApp } from './app.ts';

serve(makeApp(), { port: Number(Deno.env.get('PORT') ?? 8000), hostname: Deno.env.get('HOST') ?? '127.0.0.1' });
