// Hono with the DB routes on workerd: a connection per request (bench/shared/db.ts says why).
import { perRequestSource } from '../shared/db.ts';
import { app } from './app.ts';
import { addDbRoutes } from './db.ts';

export default addDbRoutes(app, perRequestSource());
