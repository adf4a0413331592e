// A plain Workers module, bundled by the runner and served by workerd (no files there: no static rows).
import { withAppLayer } from './app-layer.ts';
import { handle } from './handler.ts';

export default { fetch: withAppLayer(handle) };
