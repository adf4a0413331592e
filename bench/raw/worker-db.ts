// The bare Workers module with the DB routes on workerd: a connection per request (bench/shared/db.ts says why).
import { perRequestSource } from '../shared/db.ts';
import { withDbRoutes } from './db.ts';
import { handle } from './handler.ts';

export default { fetch: withDbRoutes(handle, perRequestSource()) };
