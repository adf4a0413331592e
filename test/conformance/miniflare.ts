// node --import tsx test/conformance/miniflare.ts <example dir> [<bindings as JSON>]
//
// Serves an example's worker the way `wrangler dev` would, offline, on PORT: the
// entry bundled with esbuild, then Miniflare 4 (the real workerd, plus Cloudflare's
// own Static Assets, KV and R2 simulators) configured from the example's wrangler.toml:
// `[assets]` (directory, binding, run_worker_first), `[[kv_namespaces]]` and `[[r2_buckets]]`
// (in memory) and `[vars]`. The plain workerd config of dev/workerd.ts has neither assets
// nor KV; wrangler dev adds a development proxy and a slower start for nothing here.
// Stops cleanly on SIGTERM/SIGINT (Miniflare then stops its workerd).
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { Miniflare } from 'miniflare';
import { ROOT } from '../../dev/proc.ts';
import { bundleWorker } from '../../dev/workerd.ts';
import { parseWrangler } from './wrangler-toml.ts';

const dir = resolve(ROOT, process.argv[2] ?? 'examples/notes');
const config = parseWrangler(readFileSync(join(dir, 'wrangler.toml'), 'utf8'));
const scratch = mkdtempSync(join(tmpdir(), 'rove-miniflare-'));
const script = join(scratch, 'worker.js');
bundleWorker(join(dir, config.main), script);

const mf = new Miniflare({
  modules: true,
  scriptPath: script,
  modulesRoot: scratch,
  compatibilityDate: config.compatibilityDate,
  compatibilityFlags: config.compatibilityFlags,
  // [vars], and the test's own bindings (the second argument, as JSON).
  bindings: { ...config.vars, ...(process.argv[3] ? JSON.parse(process.argv[3]) : {}) },
  kvNamespaces: config.kvNamespaces,
  r2Buckets: config.r2Buckets,
  ...(config.assets
    ? {
        assets: {
          directory: join(dir, config.assets.directory),
          binding: config.assets.binding,
          routerConfig: { has_user_worker: true, invoke_user_worker_ahead_of_assets: config.assets.runWorkerFirst },
        },
      }
    : {}),
  // /cdn-cgi/handler/scheduled?cron=… fires a cron trigger, as wrangler dev --test-scheduled's /__scheduled does.
  unsafeTriggerHandlers: true,
  host: process.env.HOST ?? '127.0.0.1',
  port: Number(process.env.PORT ?? 8787),
});

const url = await mf.ready;
console.log(`miniflare: ${dir} on ${url}`);

let stopping = false;
const stop = async () => {
  if (stopping) return;
  stopping = true;
  await mf.dispose().catch(() => {});
  rmSync(scratch, { recursive: true, force: true });
  process.exit(0);
};
process.on('SIGTERM', stop);
process.on('SIGINT', stop);
