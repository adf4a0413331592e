import { serve } from 'rove/bun';
import { makeApp, optionsFrom } from './app.ts';

const { app } = makeApp(optionsFrom((name) => Bun.env[name]));
serve(app, { port: Number(Bun.env.PORT ?? 8000), hostname: Bun.env.HOST ?? '127.0.0.1' });
