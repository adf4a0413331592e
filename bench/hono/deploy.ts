import { app } from './app.ts';
import { dbRoutesFromEnv } from './db.ts';

dbRoutesFromEnv(app, (n) => Deno.env.get(n));

export default { fetch: app.fetch };
