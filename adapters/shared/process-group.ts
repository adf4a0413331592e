// The value `serve(app, { processes })` takes: made by processGroup() from rove/node/processes,
// rove/deno/processes or rove/bun/processes. The adapters know only this interface and its check,
// so an app that serves alone loads (and bundles) no process-group code and no node: module.
import type { GroupRuntime, ProcessGroup, ServeOptions } from './serve-options.ts';

export type { GroupChild, GroupRole, GroupRuntime, ProcessGroup } from './serve-options.ts';

/**
 * `options.processes`, checked: a ProcessGroup for `runtime`, or undefined. A plain count (the
 * option's old shape) or another runtime's group throws, saying what to import.
 */
export function groupOption(runtime: GroupRuntime, options: ServeOptions): ProcessGroup | undefined {
  const given = options.processes as unknown;
  if (given === undefined) return undefined;
  const fix = `import { processGroup } from 'rove/${runtime}/processes' and pass serve(app, { processes: processGroup(${typeof given === 'number' ? given : "'auto'"}) })`;
  if (typeof given !== 'object' || given === null || (given as ProcessGroup).kind !== 'rove:process-group') {
    throw new TypeError(`serve(): processes takes a process group, not ${JSON.stringify(given) ?? String(given)}: ${fix}`);
  }
  const group = given as ProcessGroup;
  if (group.runtime !== runtime) throw new TypeError(`serve(): this process group is rove/${group.runtime}'s, and this is rove/${runtime}: ${fix}`);
  return group;
}
