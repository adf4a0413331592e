import { Context, internals } from '../context.ts';
import { NO_WORKERS, type WorkerRunner } from './runner.ts';

// `c.worker`: a getter on the context prototype, put there when rove/workers loads, so apps
// without a pool do not carry it (the core only types it).
if (!Object.hasOwn(Context.prototype, 'worker')) {
  Object.defineProperty(Context.prototype, 'worker', {
    configurable: true,
    get(this: Context<any, any>): WorkerRunner {
      return internals.config(this).workers ?? NO_WORKERS;
    },
  });
}
