import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { toFsPath } from '../../../adapters/shared/fs-path.ts';
import { createViews } from '../../../adapters/shared/views-fs.ts';

const dir = mkdtempSync(join(tmpdir(), 'rove-fs-path-'));
writeFileSync(join(dir, 'hi.dve'), 'hi {{ name }}');
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('toFsPath', () => {
  it('takes a file: URL, its string, an absolute path and a relative one', () => {
    expect(toFsPath(pathToFileURL(dir))).toBe(dir);
    expect(toFsPath(pathToFileURL(dir).href)).toBe(dir);
    expect(toFsPath(dir)).toBe(dir);
    expect(toFsPath('views')).toBe(resolve('views'));
  });

  it('decodes a URL-encoded path', () => {
    expect(toFsPath(new URL('file:///tmp/a%20b/'))).toBe('/tmp/a b/');
  });

  it('refuses a URL that is not a file', () => {
    expect(() => toFsPath(new URL('https://example.com/views'))).toThrow(TypeError);
    expect(() => toFsPath(42 as unknown as string)).toThrow(TypeError);
  });
});

describe('createViews({ dir })', () => {
  it('reads views from a directory given as a URL, a file: string or a path', async () => {
    for (const given of [pathToFileURL(`${dir}/`), pathToFileURL(dir).href, dir]) {
      expect(await createViews({ dir: given }).render('hi', { name: 'Ada' })).toBe('hi Ada');
    }
  });
});
