// Deno Deploy, or locally: deno serve --allow-env examples/realtime/deploy.ts
import { toDeploy } from 'rove/deno-deploy';
import { app } from './app.ts';

export default toDeploy(app);
