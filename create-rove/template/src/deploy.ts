// Deno Deploy, or locally: npm run start:deploy (deno serve; PORT and HOST pick the address).
import { toDeploy } from 'rove/deno-deploy';
import { app } from './app.ts';

export default toDeploy(app);
