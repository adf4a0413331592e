import { serve } from 'rove/node';
import { staticApp } from './app.ts';

serve(staticApp(process.env.STATIC_ROOT ?? 'test/middleware/static/fixture/public'), { port: Number(process.env.PORT ?? 8000), hostname: '127.0.0.1' });
