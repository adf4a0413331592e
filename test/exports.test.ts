// The package's entry points resolve where users import them: Node 20 (built dist/), Bun and Deno.
import { execFileSync } from 'node:child_process';
import { realpathSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { EXPORTS } from '../scripts/exports-table.ts';

const ROOT = join(import.meta.dirname, '..');
// Every entry of the exports table (scripts/exports-table.ts).
const ENTRIES = EXPORTS.map((e) => (e.subpath === '.' ? 'rove' : `rove/${e.subpath.slice(2)}`));
const script = `const names = ${JSON.stringify(ENTRIES)};
const out = {};
for (const n of names) out[n] = Object.keys(await import(n)).sort().join(',');
console.log(JSON.stringify(out));`;

function run(bin: string, args: string[]): Record<string, string> {
  return JSON.parse(
    execFileSync(bin, args, { cwd: ROOT, encoding: 'utf8', env: { ...process.env, NO_COLOR: '1' } })
      .trim()
      .split('\n')
      .pop()!,
  );
}

describe('package exports', () => {
  it('resolve from plain Node (dist/)', () => {
    const out = run(process.execPath, ['--input-type=module', '-e', script]);
    expect(out.rove).toContain('App');
    expect(out.rove.split(',')).toEqual(expect.arrayContaining(['App', 'HttpError', 'Router', 'validate']));
    expect(out['rove/node']).toContain('serve');
    expect(out['rove/cloudflare']).toContain('toWorker');
    expect(out['rove/threads']).toContain('createThreadPool');
  });

  it('resolve from Bun and Deno the same way', () => {
    const node = run(process.execPath, ['--input-type=module', '-e', script]);
    const bun = run(realpathSync(join(ROOT, 'node_modules/.bin/bun')), ['-e', script]);
    const deno = run(realpathSync(join(ROOT, 'node_modules/.bin/deno')), ['eval', '--ext=ts', script]);
    expect(bun).toEqual(node);
    expect(deno).toEqual(node);
  });
});
