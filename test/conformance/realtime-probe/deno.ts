import { serve } from 'rove/deno';
import { app } from './app.ts';

serve(app, { port: Number(Deno.env.get('PORT') ?? 8000), hostname: Deno.env.get('HOST') ?? '127.0.0.1' });
