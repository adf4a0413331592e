// scripts/pack-manifest.ts on a package of its own: what prepack writes, what postpack restores,
// and a pack that failed between the two (no postpack) set right by the next one.
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { BACKUP, publishedManifest, restore, write } from '../../scripts/pack-manifest.ts';

// Not JSON.stringify's layout, so a restore that rewrote the file instead of moving it back would show.
const REPO =
  '{ "name": "pkg", "version": "1.0.0",\n  "scripts": { "prepare": "build", "bench": "x" },\n  "devDependencies": { "tsx": "1" },\n  "dependencies": { "ws": "8" } }\n';
let dir: string;

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'pack-manifest-'));
  writeFileSync(join(dir, 'package.json'), REPO);
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

const manifest = () => JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8'));

describe('pack-manifest', () => {
  it('writes the package.json without scripts and devDependencies, then restores the original bytes', () => {
    write(dir);
    expect(manifest()).toEqual({ name: 'pkg', version: '1.0.0', dependencies: { ws: '8' } });
    expect(restore(dir)).toBe(true);
    expect(readFileSync(join(dir, 'package.json'), 'utf8')).toBe(REPO);
    expect(existsSync(join(dir, BACKUP))).toBe(false);
    expect(restore(dir)).toBe(false);
  });

  it('after a pack that never restored, the next write starts from the repository package.json', () => {
    write(dir);
    write(dir);
    expect(manifest()).toEqual({ name: 'pkg', version: '1.0.0', dependencies: { ws: '8' } });
    restore(dir);
    expect(readFileSync(join(dir, 'package.json'), 'utf8')).toBe(REPO);
  });

  it('keeps every other field, in order', () => {
    expect(Object.keys(publishedManifest({ a: 1, scripts: {}, b: 2, devDependencies: {}, c: 3 }))).toEqual(['a', 'b', 'c']);
  });
});
