// `rove/static`, `rove/views` and `rove/fs-routes` differ by runtime: Workers has no file system.
// Each project under runtime-entries/ is typed for one runtime and asserts, with `tsc`, which of
// their exports it sees: the types of that runtime's own entry (package.json nests `types` in each
// runtime's condition), and what every runtime has for a project that names no runtime.
// Reads dist/*.d.ts: `npm test` builds first; for a run of this file alone, `npm run build`.
import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { ROOT } from '../../dev/proc.ts';

const tsc = join(ROOT, 'node_modules/typescript/bin/tsc');

async function typeCheck(project: string): Promise<string> {
  try {
    await promisify(execFile)(process.execPath, [tsc, '-p', join(ROOT, 'test/types/runtime-entries', project)], { cwd: ROOT, timeout: 120_000 });
    return '';
  } catch (error) {
    return String((error as { stdout?: string }).stdout ?? error);
  }
}

describe('the types of the entries that differ by runtime', () => {
  it.each([
    ['a Workers project (@cloudflare/workers-types, the workerd condition): no fileSource, no scanRoutes', 'workers'],
    ["a project that names no runtime (wrangler's template): only what every runtime has", 'plain'],
    ["a Deno project (Deno's types, the deno condition): Deno's file-system readers", 'deno'],
    ["a Bun project (Bun's types, the bun condition): Bun's file-system readers", 'bun'],
    ['a Node project (moduleResolution nodenext): Node’s file-system readers', 'node'],
  ])('%s', async (_name, project) => {
    expect(await typeCheck(project)).toBe('');
  });
});
