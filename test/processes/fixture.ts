// A server group for processes.test.ts: `serve(app, { processes: processGroup(2) })` on
// whichever runtime runs this file. Each answer names the process that served it.
import { App } from '../../src/index.ts';

const g = globalThis as { Deno?: unknown; Bun?: unknown };
const runtime = g.Deno ? 'deno' : g.Bun ? 'bun' : 'node';
const { serve } = (await import(`../../adapters/${runtime}/index.ts`)) as typeof import('../../adapters/node/index.ts');
const { processGroup } = (await import(`../../adapters/${runtime}/processes.ts`)) as typeof import('../../adapters/node/processes.ts');

const app = new App();
app.get('/pid', (c) => c.text(String(process.pid)));
app.get('/slow', async (c) => {
  await new Promise((r) => setTimeout(r, 800));
  return c.text(`slow ${process.pid}`);
});
serve(app, { port: Number(process.env.PORT), hostname: '127.0.0.1', processes: processGroup(Number(process.env.PROCESSES ?? 2)), onListen: () => {} });
