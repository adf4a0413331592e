import { serve } from 'rove/node';
import { webSockets } from 'rove/node/websocket';
import { app } from './app.ts';

serve(app, { port: Number(process.env.PORT ?? 8000), hostname: process.env.HOST ?? '127.0.0.1', webSockets });
