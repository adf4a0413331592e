// On Workers the root is the [assets] directory; the test runs it under Miniflare with an ASSETS binding.
import { toWorker } from 'rove/cloudflare';
import { staticApp } from './app.ts';

export default toWorker(staticApp('.'));
