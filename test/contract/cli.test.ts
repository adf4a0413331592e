// `rove openapi <module>`: the document of a module's App or declarations, as JSON, validated.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { cli } from '../../adapters/cli/cli.ts';
import { pickExport } from '../../adapters/cli/openapi.ts';
import { route } from '../../src/contract/index.ts';
import { openAPIErrors } from './openapi-check.ts';

const ROOT = join(import.meta.dirname, '../..');
const MODULE = 'test/contract/fixture/exports.ts';
const scratch = mkdtempSync(join(tmpdir(), 'rove-openapi-cli-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

describe('contract > rove openapi', () => {
  it('writes the document of the App a module exports, declared and plain routes', async () => {
    const out = join(scratch, 'app.json');
    const log = vi.spyOn(console, 'error').mockImplementation(() => {});
    expect(await cli(['openapi', MODULE, '--out', out, '--title', 'Users', '--version', '2.0.0', '--server', 'https://api.example.com'])).toBe(0);
    expect(log.mock.calls.flat().join('\n')).toContain(`${MODULE} -> ${out}`);
    log.mockRestore();
    const doc = JSON.parse(readFileSync(out, 'utf8'));
    expect(await openAPIErrors(doc)).toEqual([]);
    expect(doc.info).toEqual({ title: 'Users', version: '2.0.0' });
    expect(doc.servers).toEqual([{ url: 'https://api.example.com' }]);
    expect(Object.keys(doc.paths)).toEqual(expect.arrayContaining(['/v1/users', '/v1/users/{id}', '/plain/{slug}', '/reference']));
    expect(doc.paths['/v1/users/{id}'].get.summary).toBe('One user');
    expect(doc.components.securitySchemes).toBeDefined();
  });

  it('--export picks the declarations instead; info defaults to package.json', async () => {
    const out = join(scratch, 'api.json');
    vi.spyOn(console, 'error').mockImplementationOnce(() => {});
    expect(await cli(['openapi', MODULE, '--export', 'api', '--out', out])).toBe(0);
    const doc = JSON.parse(readFileSync(out, 'utf8'));
    expect(await openAPIErrors(doc)).toEqual([]);
    const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8'));
    expect(doc.info).toEqual({ title: pkg.name, version: pkg.version });
    expect(doc.paths['/plain/{slug}']).toBeUndefined(); // the contract only
    expect(Object.keys(doc.paths)).toContain('/v1/users/{id}/name');
  });

  it('chooses the export: default, app, or the only App; refuses several or none', () => {
    const r = route({ method: 'GET', path: '/a', responses: { 200: null } });
    const app = { routeList: [] };
    expect(pickExport({ app, other: 1 })).toBe(app);
    expect(pickExport({ default: r, app })).toBe(r);
    expect(pickExport({ server: app, routes: { r } })).toBe(app);
    expect(pickExport({ a: { r }, b: r }, 'b')).toBe(r);
    expect(() => pickExport({ a: { r }, b: r })).toThrow(/several: a, b/);
    expect(() => pickExport({ x: 1 })).toThrow(/no App/);
    expect(() => pickExport({ x: 1 }, 'x')).toThrow(/neither/);
    expect(() => pickExport({}, 'y')).toThrow(/no export "y"/);
  });

  it('bad usage exits 2, a module without an App 1', async () => {
    const err = vi.spyOn(console, 'error').mockImplementation(() => {});
    expect(await cli(['openapi'])).toBe(2);
    expect(await cli(['openapi', MODULE, '--bogus'])).toBe(2);
    expect(await cli(['openapi', 'test/contract/fixture/api.ts', '--export', 'User'])).toBe(1);
    err.mockRestore();
  });

  it('runs as the rove executable, writing to stdout', () => {
    const stdout = execFileSync(process.execPath, ['--import', 'tsx', 'adapters/cli/bin.ts', 'openapi', MODULE, '--title', 'T', '--version', '1'], {
      cwd: ROOT,
      encoding: 'utf8',
    });
    const doc = JSON.parse(stdout);
    expect(doc.openapi).toBe('3.1.0');
    expect(doc.paths['/v1/users'].post.security).toEqual([{ bearer: [] }, { jwt: [] }]);
  });

  it('the built executable on plain Node loads a .ts module through tsx', () => {
    // Node 20 cannot import .ts: the command registers tsx (a devDependency here) and retries.
    // Declarations only: the fixture's App uses src/, the built command dist/ (another registry).
    const stdout = execFileSync(process.execPath, ['dist/adapters/cli/bin.js', 'openapi', 'test/contract/fixture/api.ts', '--export', 'api'], {
      cwd: ROOT,
      encoding: 'utf8',
    });
    expect(Object.keys(JSON.parse(stdout).paths)).toContain('/v1/users/{id}');
  });
});
