// Deno Deploy (no threads): the pool runs tasks inline. Locally: deno serve examples/threads/deploy.ts
import { toDeploy } from 'rove/deno-deploy';
import { makeApp } from './app.ts';

export default toDeploy(makeApp().app);
