// rove/session, rove/csrf, rove/cors, rove/auth and rove/ip resolve where users import them: Node 20 (built dist/), Bun and Deno.
import { execFileSync } from 'node:child_process';
import { realpathSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = join(import.meta.dirname, '..');
const ENTRIES = ['rove/session', 'rove/csrf', 'rove/cors', 'rove/auth', 'rove/ip'];
const script = `const out = {};
for (const n of ${JSON.stringify(ENTRIES)}) out[n] = Object.keys(await import(n)).sort().join(',');
console.log(JSON.stringify(out));`;

function run(bin: string, args: string[]): Record<string, string> {
  const out = execFileSync(bin, args, { cwd: ROOT, encoding: 'utf8', env: { ...process.env, NO_COLOR: '1' } });
  return JSON.parse(out.trim().split('\n').pop()!);
}

describe('package exports > security subpaths', () => {
  it('resolve from plain Node, Bun and Deno with the same names', () => {
    const node = run(process.execPath, ['--input-type=module', '-e', script]);
    expect(node['rove/session'].split(',')).toEqual(expect.arrayContaining(['session', 'cookieStore', 'memoryStore', 'kvStore', 'getSession']));
    expect(node['rove/csrf'].split(',')).toEqual(expect.arrayContaining(['csrf', 'csrfToken']));
    expect(node['rove/cors'].split(',')).toEqual(['cors']);
    expect(node['rove/auth'].split(',')).toEqual(expect.arrayContaining(['basicAuth', 'bearerAuth', 'jwt', 'jwtPayload']));
    expect(node['rove/ip']).toBe('ipRestriction');
    expect(run(realpathSync(join(ROOT, 'node_modules/.bin/bun')), ['-e', script])).toEqual(node);
    expect(run(realpathSync(join(ROOT, 'node_modules/.bin/deno')), ['eval', '--ext=ts', script])).toEqual(node);
  });
});
