import type { App } from 'rove';
import { serve } from 'rove/bun';
import { makeApp } from './app.ts';

serve(makeApp() as unknown as App, { port: Number(Bun.env.PORT ?? 8000), hostname: Bun.env.HOST ?? '127.0.0.1' });
