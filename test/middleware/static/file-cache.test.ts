// The memory of small files' bytes: kept only while the stat of the request names the same
// version, only when settled, and bounded in files and bytes.
import { describe, expect, it } from 'vitest';
import { FileCache, type FileVersion, inMemory, SETTLED_MS } from '../../../src/middleware/static/file-cache.ts';

const T = 1_700_000_000_000;
const v = (size: number, more: Partial<FileVersion> = {}): FileVersion => ({ size, mtimeMs: T, ctimeMs: T, ino: 7, ...more });
const bytes = (n: number, fill = 1) => new Uint8Array(n).fill(fill);
const later = T + SETTLED_MS + 1;

describe('FileCache', () => {
  it('answers the kept bytes for the same version, and drops them for any other', () => {
    const cache = new FileCache();
    cache.offer('/a', v(4), bytes(4), later);
    expect(cache.get('/a', v(4))).toEqual(bytes(4));
    for (const other of [v(5), v(4, { mtimeMs: T + 1 }), v(4, { ctimeMs: T + 1 }), v(4, { ino: 8 })]) {
      cache.offer('/a', v(4), bytes(4), later);
      expect(cache.get('/a', other)).toBeUndefined();
      expect(cache.get('/a', v(4))).toBeUndefined(); // dropped, not kept for later
    }
    expect(cache.size).toEqual({ entries: 0, bytes: 0 });
  });

  it('keeps nothing written within SETTLED_MS of the stat, nor with unknown or future times', () => {
    const cache = new FileCache();
    cache.offer('/a', v(4), bytes(4), T + SETTLED_MS);
    cache.offer('/b', v(4, { ctimeMs: T + 5000 }), bytes(4), later);
    cache.offer('/c', v(4, { mtimeMs: Number.NaN }), bytes(4), later);
    cache.offer('/d', v(4), bytes(4), T - 1000);
    expect(cache.size.entries).toBe(0);
    // Unknown ctime and inode (a source that cannot tell): the mtime alone decides, and they compare equal.
    cache.offer('/e', v(4, { ctimeMs: Number.NaN, ino: Number.NaN }), bytes(4), later);
    expect(cache.get('/e', v(4, { ctimeMs: Number.NaN, ino: Number.NaN }))).toBeDefined();
  });

  it('keeps neither large files nor bytes that disagree with the stat', () => {
    const cache = new FileCache(1000, 100);
    cache.offer('/big', v(101), bytes(101), later);
    cache.offer('/short', v(10), bytes(9), later);
    expect(cache.size.entries).toBe(0);
  });

  it('is bounded in files and bytes, dropping the least recently used first', () => {
    const byCount = new FileCache(1 << 20, 100, 3);
    for (const k of ['/a', '/b', '/c']) byCount.offer(k, v(1), bytes(1), later);
    byCount.get('/a', v(1)); // /b is now the oldest
    byCount.offer('/d', v(1), bytes(1), later);
    expect(byCount.size.entries).toBe(3);
    expect(byCount.get('/b', v(1))).toBeUndefined();
    expect(byCount.get('/a', v(1))).toBeDefined();

    const byBytes = new FileCache(250, 100, 100);
    for (const k of ['/a', '/b']) byBytes.offer(k, v(100), bytes(100), later);
    byBytes.offer('/c', v(100), bytes(100), later);
    expect(byBytes.size).toEqual({ entries: 2, bytes: 200 });
    expect(byBytes.get('/a', v(100))).toBeUndefined();
    // Offering a key again replaces it, and the count of bytes follows.
    byBytes.offer('/c', v(50), bytes(50), later);
    expect(byBytes.size).toEqual({ entries: 2, bytes: 150 });
  });
});

describe('inMemory', () => {
  it('gives the whole buffer or a view of a range, never a copy', () => {
    const buf = new TextEncoder().encode('0123456789');
    const file = inMemory(buf, T);
    expect(file.size).toBe(10);
    expect(file.body(0, 9)).toBe(buf);
    expect(new TextDecoder().decode(file.body(2, 4) as Uint8Array)).toBe('234');
  });
});
