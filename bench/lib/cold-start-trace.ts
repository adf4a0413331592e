// workerd's module startup time, as workerd itself reports it. `workerd serve --perfetto-trace`
// records its own slices; `Server::makeWorker()` covers building the worker: the isolate and
// its context, compiling the modules and evaluating their top level (a module that spins at top
// level lengthens exactly this slice), and the bindings. That is the work a Workers cold start
// adds before the first request, without workerd's own process start or socket setup.
//
// Why not wrangler: `wrangler deploy` and `wrangler versions upload` print "Worker Startup Time"
// from Cloudflare's API (not offline); wrangler 4.86's offline `wrangler check startup` writes a
// V8 CPU profile of Miniflare's workerd importing the bundle, but that profile holds only a few
// samples for a module this small (workerd's sampler rarely catches the isolate), so the
// time between them says nothing about the startup.
import { readFileSync } from 'node:fs';
import { traceSlices } from './perfetto.ts';

export const STARTUP_SLICE = 'Server::makeWorker()';

/** The Server::makeWorker() slice of a trace file, in ms; null when the trace has none. */
export function workerStartupMs(traceFile: string): number | null {
  let bytes: Uint8Array;
  try {
    bytes = readFileSync(traceFile);
  } catch {
    return null;
  }
  const slice = traceSlices(bytes).find((s) => s.name === STARTUP_SLICE);
  return slice ? slice.dur / 1e6 : null;
}
