// The Deno adapters load no node: module unless a server group needs one: any node: module makes
// Deno look at its inspector on every WebSocket message (docs/design-notes.md).
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { bundleOf, ROOT } from '../../dev/bundle.ts';

/** The node: modules `entry` reaches through static imports only (a dynamic import loads on demand). */
async function staticNodeImports(entry: string): Promise<string[]> {
  const { metafile } = await bundleOf({ entryPoints: [join(ROOT, entry)], platform: 'neutral', external: ['node:*', 'ws'] });
  const inputs = metafile.inputs;
  const seen = new Set<string>();
  const found = new Set<string>();
  const visit = (file: string) => {
    if (seen.has(file)) return;
    seen.add(file);
    for (const i of inputs[file]?.imports ?? []) {
      if (i.kind !== 'import-statement') continue;
      if (i.path.startsWith('node:')) found.add(`${file} -> ${i.path}`);
      else if (!i.external) visit(i.path);
    }
  };
  visit(entry);
  return [...found];
}

describe('the Deno adapters load no node: module for a single server', () => {
  // rove/deno, rove/deno-deploy, and what rove/static, rove/views and rove/fs-routes are on Deno.
  const entries = [
    'adapters/deno/index.ts',
    'adapters/deno-deploy/index.ts',
    'adapters/deno/static.ts',
    'adapters/deno/views.ts',
    'adapters/deno/fs-routes.ts',
  ];
  for (const entry of entries) {
    it(entry, async () => {
      expect(await staticNodeImports(entry)).toEqual([]);
    });
  }

  it('the check sees a static node: import', async () => {
    expect((await staticNodeImports('adapters/shared/processes.ts')).length).toBeGreaterThan(0);
  });
});
