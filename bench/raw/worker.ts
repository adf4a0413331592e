// A plain Workers module, bundled by the runner and served by workerd.
import { handle } from './handler.ts';

export default { fetch: handle };
