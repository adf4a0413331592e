import { serve } from 'rove/deno';
import { makeApp, optionsFrom } from './app.ts';

const { app } = makeApp(optionsFrom((name) => Deno.env.get(name)));
serve(app, { port: Number(Deno.env.get('PORT') ?? 8000), hostname: Deno.env.get('HOST') ?? '127.0.0.1' });
