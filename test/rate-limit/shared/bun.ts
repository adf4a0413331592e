import { serve } from 'rove/bun';
import { RespClient } from '../../../dev/resp.ts';
import { makeApp } from './app.ts';

const redis = await RespClient.connect(Number(Bun.env.REDIS_PORT));
serve(makeApp(redis, 'bun', Bun.env.SESSION_SECRET!), { port: Number(Bun.env.PORT ?? 8000), hostname: '127.0.0.1' });
