// Deno Deploy, or locally: npm run notes:deploy (deno serve; PORT and HOST pick the address).
// Deploy compresses at the platform, so the app does not. Sessions stay in this isolate's memory:
// fine for the example; a deployment with several isolates wants a shared store.
// toDeploy() hands the process environment to the app as c.env, where app.ts reads its settings.
import { fileURLToPath } from 'node:url';
import { toDeploy } from 'rove/deno-deploy';
import { memoryStore } from 'rove/session';
import { createNotesApp } from './app.ts';

const app = createNotesApp({
  store: memoryStore(),
  publicDir: fileURLToPath(new URL('./public', import.meta.url)),
});

export default toDeploy(app);
