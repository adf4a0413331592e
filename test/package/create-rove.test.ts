// create-rove on its own: what it writes and what it refuses. The written app installed and
// run on every runtime is test/package/packed.test.ts.
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';

const ROOT = join(import.meta.dirname, '../..');
const CLI = join(ROOT, 'create-rove/index.js');
const work = mkdtempSync(join(tmpdir(), 'create-rove-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

function create(args: string[]): { status: number; out: string } {
  try {
    return { status: 0, out: execFileSync(process.execPath, [CLI, ...args], { cwd: work, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] }) };
  } catch (error) {
    const e = error as { status: number; stderr: string };
    return { status: e.status, out: e.stderr };
  }
}

describe('create-rove', () => {
  it('writes an app with one entry per runtime, its configs and a test, asking nothing with --yes', () => {
    const { status, out } = create(['My App', '--yes']);
    expect(status).toBe(0);
    expect(out).toContain('npm install && npm start');
    const dir = join(work, 'My App');
    for (const file of [
      'src/app.ts',
      'src/node.ts',
      'src/deno.ts',
      'src/bun.ts',
      'src/deploy.ts',
      'src/worker.ts',
      'test/app.test.ts',
      'test/workerd/app.test.ts',
      'vitest.config.ts',
      'vitest.workers.config.ts',
      'tsconfig.json',
      'wrangler.toml',
      'deno.json',
      '.gitignore',
      'README.md',
      'package.json',
    ]) {
      expect(() => readFileSync(join(dir, file)), file).not.toThrow();
    }
    const pkg = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8'));
    expect(pkg.name).toBe('my-app');
    expect(pkg.dependencies.rove).toBe(`^${JSON.parse(readFileSync(join(ROOT, 'create-rove/package.json'), 'utf8')).version}`);
    expect(pkg.scripts.test).toBe('vitest run && vitest run -c vitest.workers.config.ts');
    expect(readFileSync(join(dir, 'wrangler.toml'), 'utf8')).toContain('name = "my-app"');
    const readme = readFileSync(join(dir, 'README.md'), 'utf8').split('\n');
    expect(readme[0]).toMatch(/^npm install && npm start\s+#/);
    expect(readme[1]).toMatch(/^npm test\s+#/);
    expect(readFileSync(join(dir, 'test/app.test.ts'), 'utf8')).toContain('app.request(');
  });

  it('points the app at a local Rove with --rove, as an absolute file: spec', () => {
    const tarball = join(work, 'rove-9.9.9.tgz');
    writeFileSync(tarball, '');
    expect(create(['local', '--yes', '--rove', tarball]).status).toBe(0);
    expect(JSON.parse(readFileSync(join(work, 'local/package.json'), 'utf8')).dependencies.rove).toBe(`file:${tarball}`);
    expect(create(['ranged', '--yes', '--rove', '^0.2.0']).status).toBe(0);
    expect(JSON.parse(readFileSync(join(work, 'ranged/package.json'), 'utf8')).dependencies.rove).toBe('^0.2.0');
  });

  it('refuses a directory that is not empty, and changes nothing in it', () => {
    mkdirSync(join(work, 'taken'));
    writeFileSync(join(work, 'taken/keep.txt'), 'mine');
    const { status, out } = create(['taken', '--yes']);
    expect(status).toBe(1);
    expect(out).toContain('not empty');
    expect(readFileSync(join(work, 'taken/keep.txt'), 'utf8')).toBe('mine');
  });

  it("pins the app's tools to the versions this repository is tested with (so they install from the same cache)", async () => {
    const cli: string = pathToFileURL(CLI).href; // plain JavaScript, no types: import it by URL
    const { DEV_DEPENDENCIES } = (await import(cli)) as { DEV_DEPENDENCIES: Record<string, string> };
    const root = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')).devDependencies;
    for (const [name, version] of Object.entries(DEV_DEPENDENCIES)) expect(root[name], name).toBe(version);
  });

  it('uses rove-app without a name, and prints help', () => {
    expect(create(['--yes']).status).toBe(0);
    expect(() => readFileSync(join(work, 'rove-app/src/app.ts'))).not.toThrow();
    expect(create(['--help']).out).toContain('--rove');
  });
});
