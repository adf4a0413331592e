// Node 24 beside the machine's Node: where scripts/install-node24.sh puts it, or NODE24.
// Without it the Node 24 runs are left out with a message; in CI (CI or ROVE_REQUIRE_NODE24
// set) that is an error, so they can never be skipped there.
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { ROOT } from '../../dev/proc.ts';

export const NODE24_VERSION = '24.21.0';

/** The Node 24 binary, or undefined when it is not installed. */
export function node24Bin(): string | undefined {
  const given = process.env.NODE24;
  if (given) return existsSync(given) ? given : undefined;
  const bin = join(ROOT, '.cache', `node-${NODE24_VERSION}`, 'bin', 'node');
  return existsSync(bin) ? bin : undefined;
}

/** Whether the Node 24 runs must happen (CI), so a missing binary fails rather than skips. */
export const NODE24_REQUIRED = Boolean(process.env.CI || process.env.ROVE_REQUIRE_NODE24);

let told = false;
/** Node 24's binary, or undefined with one message saying how to get it (an error where it is required). */
export function node24OrSkip(): string | undefined {
  const bin = node24Bin();
  if (bin !== undefined) return bin;
  if (NODE24_REQUIRED) throw new Error(`Node ${NODE24_VERSION} is missing: run bash scripts/install-node24.sh`);
  if (!told) console.warn(`Node ${NODE24_VERSION} runs skipped: bash scripts/install-node24.sh installs it`);
  told = true;
  return undefined;
}

/** `runtimes` with `node24` after `node` where Node 24 is installed (scripts/install-node24.sh). */
export function withNode24<R extends string>(runtimes: readonly R[]): (R | 'node24')[] {
  return node24OrSkip() === undefined ? [...runtimes] : runtimes.flatMap((r) => (r === 'node' ? [r, 'node24' as const] : [r]));
}
