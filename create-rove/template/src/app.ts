import { App } from 'rove';
import { serveStatic } from 'rove/static';

type Bindings = { GREETING?: string };

/** The app: written once, served by every entry next to it (node.ts, deno.ts, bun.ts, deploy.ts, worker.ts). */
export const app = new App<{ Bindings: Bindings }>();

// public/ as /static/*: from the disk on Node, Deno and Bun (the path is relative to where the
// app starts: npm scripts start it in the app's folder); on Workers from [assets] in wrangler.toml.
app.use('/static', serveStatic({ root: './public', prefix: '/static', cacheControl: 'public, max-age=3600' }));

app.get('/', (c) => c.json({ hello: 'world' }));

app.get('/users/:id', (c) => c.json({ id: c.req.param('id') }));

app.post('/echo', async (c) => c.json(await c.req.json()));

// On Workers the greeting comes from wrangler.toml's [vars]; elsewhere from the process environment.
app.get('/env', (c) => c.text(c.env.GREETING ?? 'Hello from Rove'));
