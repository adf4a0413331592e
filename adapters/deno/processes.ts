// rove/deno/processes: Deno's server group. A child is this script again with the same
// permissions, plus --unstable-net, behind which Deno keeps Deno.serve's reusePort.
// /proc/self/cmdline would keep every flag, but Deno reads it only with --allow-all, so the
// command is rebuilt from what Deno tells. This loads node:child_process and friends (Deno's
// Node layer): only an app that asks for a group imports it.

import { childIndex, makeGroup, ownCommand, type ProcessCount, spawnLaunch } from '../shared/processes.ts';
import type { ProcessGroup } from '../shared/serve-options.ts';

export type { ProcessCount } from '../shared/processes.ts';
export type { ProcessGroup } from '../shared/serve-options.ts';

/**
 * Serve with this many processes on one port ('auto': one per core), each Deno.serve with
 * reusePort. The process that calls serve() becomes the primary: it starts the others (each
 * re-runs this script and takes the same serve() call as a child), restarts one that dies,
 * and stops them all on SIGINT/SIGTERM or `close()`. Needs --allow-run. See docs/processes.md.
 *
 * @example
 * import { serve } from 'rove/deno';
 * import { processGroup } from 'rove/deno/processes';
 * serve(app, { port: 8000, processes: processGroup('auto') });
 */
export function processGroup(processes: ProcessCount): ProcessGroup<'deno'> {
  return makeGroup(
    'deno',
    processes,
    () => childIndex() !== undefined,
    () => spawnLaunch(denoCommand),
  );
}

declare const Deno: {
  execPath(): string;
  mainModule: string;
  args: string[];
  permissions: { querySync(d: { name: string }): { state: 'granted' | 'prompt' | 'denied' } };
};

const PERMISSIONS = ['net', 'env', 'read', 'write', 'run', 'sys', 'ffi', 'import'] as const;

/**
 * `deno run <granted permissions> --unstable-net <main module> <args>`. A permission
 * granted only for a list (`--allow-net=host`) reads as not granted and is left out:
 * the child then fails to listen and the primary says so; use `deno serve --parallel` there.
 */
export function denoCommand(): string[] {
  let all = false;
  try {
    all = Deno.permissions.querySync({ name: 'all' } as { name: string }).state === 'granted';
  } catch {
    // 'all' is not a descriptor every Deno knows
  }
  if (all) {
    const argv = ownCommand();
    const at = argv[1] === 'run' ? 2 : 1;
    return argv.includes('--unstable-net') ? argv : [...argv.slice(0, at), '--unstable-net', ...argv.slice(at)];
  }
  const flags: string[] = [];
  for (const name of PERMISSIONS) {
    try {
      if (Deno.permissions.querySync({ name }).state === 'granted') flags.push(`--allow-${name}`);
    } catch {
      // unknown to this Deno
    }
  }
  const main = Deno.mainModule.startsWith('file:') ? decodeURIComponent(new URL(Deno.mainModule).pathname) : Deno.mainModule;
  return [Deno.execPath(), 'run', ...flags, '--unstable-net', main, ...Deno.args];
}
