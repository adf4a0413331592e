import { toWorker } from 'rove/cloudflare';
import { app } from './rove-app.ts';

export default toWorker(app);
