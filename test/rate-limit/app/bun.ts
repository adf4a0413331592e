import { serve } from 'rove/bun';
import { app } from './app.ts';

serve(app, { port: Number(Bun.env.PORT ?? 8000), hostname: '127.0.0.1' });
