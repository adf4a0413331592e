import { upgradeWebSocket } from 'hono/cloudflare-workers';
import { makeApp } from './hono-app.ts';

export default makeApp(upgradeWebSocket);
