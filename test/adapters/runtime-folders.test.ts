// Each runtime's folder under adapters/ holds only that runtime's code: what a runtime loads, static
// and dynamic imports alike, comes from its own folder, adapters/shared/ and src/, never from another
// runtime's folder (Deno Deploy is Deno, and uses adapters/deno/).
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { build } from 'esbuild';
import { describe, expect, it } from 'vitest';

const ROOT = join(import.meta.dirname, '../..');
const RUNTIMES = ['node', 'deno', 'bun', 'deno-deploy', 'cloudflare'];
const MAY_USE: Record<string, string[]> = { 'deno-deploy': ['deno'], shared: [] };

/** The adapters/<runtime>/ folders the modules of `folder` load. */
async function foldersLoadedBy(folder: string): Promise<string[]> {
  const entries = readdirSync(join(ROOT, 'adapters', folder)).map((f) => `adapters/${folder}/${f}`);
  const out = await build({
    entryPoints: entries,
    absWorkingDir: ROOT,
    bundle: true,
    write: false,
    outdir: 'out',
    format: 'esm',
    platform: 'node',
    packages: 'external',
    metafile: true,
    logLevel: 'silent',
  });
  const folders = new Set<string>();
  for (const input of Object.keys(out.metafile.inputs)) {
    const m = /^adapters\/([^/]+)\//.exec(input);
    if (m && m[1] !== folder && m[1] !== 'shared') folders.add(m[1]);
  }
  return [...folders].sort();
}

describe('adapters/: one folder per runtime', () => {
  for (const folder of [...RUNTIMES, 'shared']) {
    it(`adapters/${folder}/ loads no other runtime's folder`, async () => {
      expect(await foldersLoadedBy(folder)).toEqual(MAY_USE[folder] ?? []);
    });
  }
});
