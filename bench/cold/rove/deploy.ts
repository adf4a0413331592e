// The two-route Rove app (bench/size/rove.ts) for `deno serve` (Deno Deploy).
import { toDeploy } from 'rove/deno-deploy';
import app from '../../size/rove.ts';

export default toDeploy(app);
