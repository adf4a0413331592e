// The Node file source: a name's real path is looked up once (asynchronously), then each
// request's stat is one lstat of it, answered at once, and always of the file as it is now.
import { mkdtempSync, rmSync, symlinkSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { fileSource } from '../../../adapters/node/static.ts';

const root = mkdtempSync(join(tmpdir(), 'rove-node-source-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

describe('fileSource on Node', () => {
  it('answers a remembered stat without a promise, current on every call', async () => {
    const path = join(root, 'a.css');
    writeFileSync(path, 'a{}');
    utimesSync(path, 1_600_000_000, 1_600_000_000);
    const source = fileSource(root);
    const first = source.stat!('a.css');
    expect(first).toBeInstanceOf(Promise); // the realpath, once
    expect(await first).toMatchObject({ size: 3, mtimeMs: 1_600_000_000_000 });
    const again = source.stat!('a.css');
    expect(again).not.toBeInstanceOf(Promise);
    expect(again).toMatchObject({ size: 3 });
    writeFileSync(path, 'a{color:red}');
    expect(source.stat!('a.css')).toMatchObject({ size: 12 }); // no memory of the stat itself
    const opened = await source.open('a.css');
    expect(opened).toMatchObject({ size: 12 });
    if (typeof opened === 'object') opened.close();
  });

  it('answers undefined for a directory, a missing file and a symlink put in place of a file', async () => {
    const source = fileSource(root);
    writeFileSync(join(root, 'b.css'), 'b{}');
    expect(await source.stat!('b.css')).toMatchObject({ size: 3 });
    rmSync(join(root, 'b.css'));
    expect(source.stat!('b.css')).toBeUndefined();
    symlinkSync(join(root, 'a.css'), join(root, 'b.css'));
    expect(source.stat!('b.css')).toBeUndefined(); // remembered real path is now a link: refused
    expect(await source.stat!('')).toBeUndefined(); // the root directory itself
  });
});
