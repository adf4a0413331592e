// Cloudflare Workers: wrangler dev --config examples/realtime/wrangler.toml
import { toWorker } from 'rove/cloudflare';
import { app } from './app.ts';

export default toWorker(app);
