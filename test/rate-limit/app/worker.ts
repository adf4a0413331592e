import { toWorker } from 'rove/cloudflare';
import { app } from './app.ts';

export default toWorker(app);
