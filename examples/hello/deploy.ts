// Deno Deploy, or locally: deno serve --allow-env examples/hello/deploy.ts
import { toDeploy } from 'rove/deno-deploy';
import { app } from './app.ts';

export default toDeploy(app);
