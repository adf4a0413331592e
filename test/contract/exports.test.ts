// rove/contract resolves where users import it: Node 20 (built dist/), Bun and Deno, with the same names.
import { execFileSync } from 'node:child_process';
import { realpathSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = join(import.meta.dirname, '../..');
const script = `console.log(Object.keys(await import('rove/contract')).sort().join(','));`;

function run(bin: string, args: string[]): string {
  return execFileSync(bin, args, { cwd: ROOT, encoding: 'utf8', env: { ...process.env, NO_COLOR: '1' } })
    .trim()
    .split('\n')
    .pop()!;
}

describe('contract > package entry', () => {
  it('rove/contract resolves on Node, Bun and Deno with the same exports', () => {
    const node = run(process.execPath, ['--input-type=module', '-e', script]);
    expect(node.split(',')).toEqual(
      [
        'createClient',
        'fillPath',
        'group',
        'implement',
        'isRoute',
        'openapi',
        'openapiHandler',
        'openapiPaths',
        'referenceHandler',
        'referencePage',
        'route',
        'scriptHandler',
        'declaredRoute',
      ].sort(),
    );
    expect(run(realpathSync(join(ROOT, 'node_modules/.bin/bun')), ['-e', script])).toBe(node);
    expect(run(realpathSync(join(ROOT, 'node_modules/.bin/deno')), ['eval', '--ext=ts', script])).toBe(node);
  });
});
