// Cloudflare Workers: wrangler dev, wrangler deploy (wrangler.toml points here).
import { toWorker } from 'rove/cloudflare';
import { app } from './app.ts';

export default toWorker(app);
