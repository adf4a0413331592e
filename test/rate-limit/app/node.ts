import { serve } from 'rove/node';
import { app } from './app.ts';

serve(app, { port: Number(process.env.PORT ?? 8000), hostname: '127.0.0.1' });
