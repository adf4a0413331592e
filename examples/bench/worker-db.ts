// The bench app with the DB routes on workerd (the `db` variant): a connection
// per request, because a Workers socket cannot serve another request (bench/shared/db.ts).
import { toWorker } from '../../adapters/cloudflare/index.ts';
import { perRequestSource } from '../../bench/shared/db.ts';
import { createBenchApp } from './app.ts';
import { addDbRoutes } from './db.ts';

export default toWorker(addDbRoutes(createBenchApp(), perRequestSource()));
