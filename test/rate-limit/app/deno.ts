import { serve } from 'rove/deno';
import { app } from './app.ts';

serve(app, { port: Number(Deno.env.get('PORT') ?? 8000), hostname: '127.0.0.1' });
