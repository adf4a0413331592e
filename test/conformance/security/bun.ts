import { serve } from 'rove/bun';
import { makeApp } from './app.ts';

serve(makeApp(), { port: Number(Bun.env.PORT ?? 8000), hostname: Bun.env.HOST ?? '127.0.0.1' });
