import { handler } from './raw-deno-handler.ts';

export default { fetch: handler };
