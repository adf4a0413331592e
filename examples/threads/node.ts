import { serve } from 'rove/node';
import { makeApp, optionsFrom } from './app.ts';

const { app } = makeApp(optionsFrom((name) => process.env[name]));
serve(app, { port: Number(process.env.PORT ?? 8000), hostname: process.env.HOST ?? '127.0.0.1' });
