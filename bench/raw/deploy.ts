// What Deno Deploy runs: `deno serve` of a module exporting { fetch }.
import { dbRoutesFromEnv } from './db.ts';
import { handle } from './handler.ts';

export default { fetch: dbRoutesFromEnv(handle, (n) => Deno.env.get(n)) };
