import type { App } from 'rove';
import { serve } from 'rove/node';
import { makeApp } from './app.ts';

// app.ts imports the sources by path; at run time they are the modules 'rove' resolves to.
serve(makeApp() as unknown as App, { port: Number(process.env.PORT ?? 8000), hostname: process.env.HOST ?? '127.0.0.1' });
