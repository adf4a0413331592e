// Each runtime's folder under adapters/ holds only that runtime's code: what a runtime loads, static
// and dynamic imports alike, comes from its own folder, adapters/shared/ and src/, never from another
// runtime's folder (Deno Deploy is Deno, and uses adapters/deno/).
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { bundleOf, ROOT } from '../../dev/bundle.ts';

const RUNTIMES = ['node', 'deno', 'bun', 'deno-deploy', 'cloudflare'];
const MAY_USE: Record<string, string[]> = { 'deno-deploy': ['deno'], shared: [] };

/** The adapters/<runtime>/ folders the modules of `folder` load. */
async function foldersLoadedBy(folder: string): Promise<string[]> {
  const entries = readdirSync(join(ROOT, 'adapters', folder)).map((f) => `adapters/${folder}/${f}`);
  const { metafile } = await bundleOf({ entryPoints: entries, outdir: 'out', platform: 'node', packages: 'external' });
  const folders = new Set<string>();
  for (const input of Object.keys(metafile.inputs)) {
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
