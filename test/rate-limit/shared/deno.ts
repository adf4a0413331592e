import { serve } from 'rove/deno';
import { RespClient } from '../../../dev/resp.ts';
import { makeApp } from './app.ts';

const redis = await RespClient.connect(Number(Deno.env.get('REDIS_PORT')));
serve(makeApp(redis, 'deno', Deno.env.get('SESSION_SECRET')!), { port: Number(Deno.env.get('PORT') ?? 8000), hostname: '127.0.0.1' });
