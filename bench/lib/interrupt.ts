// How every runner of the bench (the load test, the real-time one, the cold starts) stops when
// asked. The first SIGINT or SIGTERM aborts the run's signal: the runner stops at the next step,
// stops its servers by pid and writes what it has. A second one kills every server at once and
// exits. On any exit, no server outlives the runner.
import { killAllNow, stopAll } from '../../dev/proc.ts';

/** Thrown (or used as the abort reason) when the run was interrupted. */
export class Aborted extends Error {
  constructor() {
    super('interrupted');
    this.name = 'Aborted';
  }
}

/**
 * The run's abort signal, aborted by the first SIGINT or SIGTERM; `onAbort` runs then (stop the
 * load, say so). Installs the second-signal and exit handlers too.
 *
 * @example
 * const signal = interruptible((sig) => console.log(`${sig}: stopping…`));
 * for (const step of steps) { if (signal.aborted) break; await step(); }
 */
export function interruptible(onAbort: (signal: NodeJS.Signals) => void): AbortSignal {
  const controller = new AbortController();
  const handle = (sig: NodeJS.Signals) => {
    if (controller.signal.aborted) {
      killAllNow();
      process.exit(130);
    }
    controller.abort(new Aborted());
    onAbort(sig);
    // Servers under way (a cold start, a load round) stop now, not when their step ends.
    void stopAll();
  };
  process.on('SIGINT', handle);
  process.on('SIGTERM', handle);
  process.on('exit', killAllNow);
  return controller.signal;
}
