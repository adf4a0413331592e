// The two routes for `deno serve`: a plain { fetch } export.
import { handle } from './handler.ts';

export default { fetch: handle };
