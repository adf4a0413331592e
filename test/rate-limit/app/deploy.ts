import { toDeploy } from 'rove/deno-deploy';
import { app } from './app.ts';

export default toDeploy(app);
