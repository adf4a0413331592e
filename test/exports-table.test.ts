// package.json and deno.json list the package's entries as scripts/exports-table.ts makes them:
// a hand edit of either fails here (`npm run exports` rewrites both from the table).
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { conditionsOf, EXPORTS } from '../scripts/exports-table.ts';
import { formatJson, generate } from '../scripts/write-exports.ts';

const ROOT = join(import.meta.dirname, '..');
const read = (file: string) => readFileSync(join(ROOT, file), 'utf8');

describe('the exports table', () => {
  it('package.json and deno.json are what `npm run exports` writes from it', () => {
    const out = generate(read('package.json'), read('deno.json'));
    expect(read('package.json'), 'package.json differs from scripts/exports-table.ts: run npm run exports').toBe(out.packageJson);
    expect(read('deno.json'), 'deno.json differs from scripts/exports-table.ts: run npm run exports').toBe(out.denoJson);
  });

  it('names files that exist', () => {
    for (const e of EXPORTS) {
      for (const file of [e.source, e.deno, e.bun, e.worker, e.browser]) if (file) expect(existsSync(join(ROOT, file)), `${e.subpath}: ${file}`).toBe(true);
    }
  });

  it('gives a runtime its own file and its types before `source` and the bare `types`, so they win under every condition set', () => {
    const entry = { subpath: './x', source: 'a/node.ts', deno: 'a/deno.ts', bun: 'a/bun.ts', worker: 'a/worker.ts' };
    expect(Object.entries(conditionsOf(entry))).toEqual([
      ['workerd', { types: './dist/a/worker.d.ts', default: './a/worker.ts' }],
      ['worker', { types: './dist/a/worker.d.ts', default: './a/worker.ts' }],
      ['bun', { types: './dist/a/bun.d.ts', default: './a/bun.ts' }],
      ['deno', { types: './dist/a/deno.d.ts', default: './dist/a/deno.js' }],
      ['source', './a/node.ts'],
      ['node', { types: './dist/a/node.d.ts', default: './dist/a/node.js' }],
      // A project that names no runtime sees what every runtime has.
      ['types', './dist/a/worker.d.ts'],
      ['default', './dist/a/node.js'],
    ]);
    expect(Object.keys(conditionsOf({ subpath: './y', source: 'a/y.ts' }))).toEqual(['types', 'source', 'bun', 'deno', 'workerd', 'worker', 'default']);
  });

  it('writes deno.json as Biome formats it', () => {
    expect(formatJson({ a: ['x', 'y'], b: { c: 1 }, d: [] })).toBe('{\n  "a": ["x", "y"],\n  "b": {\n    "c": 1\n  },\n  "d": []\n}');
  });
});
