import { serve } from 'rove/node';
import { RespClient } from '../../../dev/resp.ts';
import { makeApp } from './app.ts';

const redis = await RespClient.connect(Number(process.env.REDIS_PORT));
serve(makeApp(redis, 'node', process.env.SESSION_SECRET!), { port: Number(process.env.PORT ?? 8000), hostname: '127.0.0.1' });
