import { serve } from 'rove/node';
import { makeApp } from './app.ts';

serve(makeApp(), { port: Number(process.env.PORT ?? 8000), hostname: process.env.HOST ?? '127.0.0.1' });
