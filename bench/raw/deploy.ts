// What Deno Deploy runs: `deno serve` of a module exporting { fetch }.
import { handle } from './handler.ts';

export default { fetch: handle };
