import { serve } from 'rove/bun';
import { staticApp } from './app.ts';

serve(staticApp(Bun.env.STATIC_ROOT ?? 'test/middleware/static/fixture/public'), { port: Number(Bun.env.PORT ?? 8000), hostname: '127.0.0.1' });
