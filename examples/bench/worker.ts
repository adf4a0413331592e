// Cloudflare Workers (the bench runs it under workerd). Workers have no process
// env at module scope, so the runner's bundler defines the two flags.
import { toWorker } from '../../adapters/cloudflare/index.ts';
import { createBenchApp } from './app.ts';

declare const __BENCH_LISTENER__: string | undefined;
declare const __BENCH_WORKERS__: string | undefined;

export default toWorker(
  createBenchApp({
    listener: typeof __BENCH_LISTENER__ !== 'undefined' && __BENCH_LISTENER__ === '1',
    threads: typeof __BENCH_WORKERS__ !== 'undefined' && __BENCH_WORKERS__ === '1',
  }),
);
