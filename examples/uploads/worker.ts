// Cloudflare Workers: npm run uploads:workers. Files go to the FILES R2 bucket (wrangler.toml),
// in 5 MiB pieces. Workers cap a request body by plan (100 MiB on Free and Pro).
import { toWorker } from 'rove/cloudflare';
import { createUploadsApp } from './app.ts';
import { type R2BucketLike, r2Store } from './r2-store.ts';

export default toWorker(createUploadsApp({ store: (env) => r2Store(env.FILES as R2BucketLike) }));
