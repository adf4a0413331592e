// The two-route Rove app (bench/size/rove.ts) as a Workers module.
import { toWorker } from 'rove/cloudflare';
import app from '../../size/rove.ts';

export default toWorker(app);
