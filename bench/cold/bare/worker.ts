// The two routes as a plain Workers module.
import { handle } from './handler.ts';

export default { fetch: handle };
