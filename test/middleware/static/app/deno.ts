import { serve } from 'rove/deno';
import { staticApp } from './app.ts';

serve(staticApp(Deno.env.get('STATIC_ROOT') ?? 'test/middleware/static/fixture/public'), { port: Number(Deno.env.get('PORT') ?? 8000), hostname: '127.0.0.1' });
