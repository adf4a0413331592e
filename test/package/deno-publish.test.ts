// deno.json describes the same package as package.json, and `deno publish --dry-run` accepts it
// (no slow types, a license, the files JSR would get). Runs offline: nothing is uploaded.
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync, realpathSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { packageExports } from './exports.ts';

const ROOT = join(import.meta.dirname, '../..');
const deno = JSON.parse(readFileSync(join(ROOT, 'deno.json'), 'utf8')) as {
  name: string;
  version: string;
  license?: string;
  exports: Record<string, string>;
  imports: Record<string, string>;
  publish?: { include?: string[] };
};
const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { version: string; license: string };

describe('deno.json', () => {
  it('exports every entry of package.json, each at its TypeScript source', () => {
    const expected = Object.fromEntries(packageExports(ROOT).map((e) => [e.key, e.source]));
    expect(deno.exports).toEqual(expected);
    expect(Object.keys(deno.exports)).toContain('./otel');
  });

  it('maps every rove/… specifier to the same file, for Deno code inside the repo', () => {
    for (const e of packageExports(ROOT)) expect(deno.imports[e.specifier], e.specifier).toBe(e.source);
  });

  it('has the version and license of package.json, and a LICENSE file it publishes', () => {
    expect(deno.version).toBe(pkg.version);
    expect(deno.license).toBe(pkg.license);
    expect(existsSync(join(ROOT, 'LICENSE'))).toBe(true);
    expect(deno.publish?.include).toContain('LICENSE');
  });

  it('passes `deno publish --dry-run` with no slow types', () => {
    const bin = realpathSync(join(ROOT, 'node_modules/.bin/deno'));
    let out: string;
    try {
      out = execFileSync(bin, ['publish', '--dry-run', '--allow-dirty'], {
        cwd: ROOT,
        encoding: 'utf8',
        stdio: ['ignore', 'pipe', 'pipe'],
        env: { ...process.env, NO_COLOR: '1', DENO_NO_UPDATE_CHECK: '1' },
      });
    } catch (error) {
      const e = error as { stdout?: string; stderr?: string };
      throw new Error(`deno publish --dry-run failed:\n${e.stderr ?? ''}\n${e.stdout ?? ''}`);
    }
    expect(out).toBeDefined();
  }, 120_000);
});
