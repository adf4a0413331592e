import { toDeploy } from 'rove/deno-deploy';
import { app } from './rove-app.ts';

export default toDeploy(app);
