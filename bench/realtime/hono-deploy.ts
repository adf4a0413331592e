import { upgradeWebSocket } from 'hono/deno';
import { makeApp } from './hono-app.ts';

export default { fetch: makeApp(upgradeWebSocket).fetch };
