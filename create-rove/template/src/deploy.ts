// Deno Deploy, or locally: deno serve --allow-env --allow-read src/deploy.ts
import { toDeploy } from 'rove/deno-deploy';
import { app } from './app.ts';

export default toDeploy(app);
