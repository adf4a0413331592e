import { toDeploy } from 'rove/deno-deploy';
import { staticApp } from './app.ts';

export default toDeploy(staticApp(Deno.env.get('STATIC_ROOT') ?? 'test/middleware/static/fixture/public'));
