import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { HttpError } from '../../src/index.ts';
import { normalizePath } from '../../src/routing/path.ts';

const piece = fc.constantFrom('a', 'b', '.', '..', '%2e', '%2E', '%2e%2e', '\\', '%41', 'é', '%2f', '%2F', '', '.well-known', 'x.y');
const rawPath = fc.array(piece, { minLength: 1, maxLength: 6 }).map((parts) => `/${parts.join('/')}`);

function outcome(path: string): string {
  try {
    return normalizePath(path);
  } catch (error) {
    expect(error).toBeInstanceOf(HttpError);
    expect((error as HttpError).status).toBe(400);
    return '400';
  }
}

describe('path normalisation', () => {
  it('resolves dot segments and backslashes as WHATWG URL does, so every runtime routes the same path', () => {
    expect(normalizePath('/a/../b')).toBe('/b');
    expect(normalizePath('/a/%2e%2e/b')).toBe('/b');
    expect(normalizePath('/a/./b')).toBe('/a/b');
    expect(normalizePath('/a\\b')).toBe('/a/b');
    expect(normalizePath('/.well-known/x')).toBe('/.well-known/x');
    expect(normalizePath('/users/42')).toBe('/users/42');
    // What Deno's and Bun's URL give (Node 20's URL keeps '/a/.x/..' unresolved).
    expect(normalizePath('/a/.x/..')).toBe('/a/');
    expect(normalizePath('/a/.well-known/../b')).toBe('/a/b');
    expect(normalizePath('/a/b/..')).toBe('/a/');
    expect(normalizePath('/a/.')).toBe('/a/');
    expect(normalizePath('/..')).toBe('/');
    expect(normalizePath('/../../x')).toBe('/x');
    expect(normalizePath('/a/.%2E/b')).toBe('/b');
    expect(normalizePath('/a/%2e./b')).toBe('/b');
  });

  it('refuses an encoded slash and an empty inner segment with 400', () => {
    expect(outcome('/files/secret%2Fx')).toBe('400');
    expect(outcome('/files/secret%2fx')).toBe('400');
    expect(outcome('//admin')).toBe('400');
    expect(outcome('/a//b')).toBe('400');
    expect(outcome('/a/..//b')).toBe('400');
    expect(outcome('/a/')).toBe('/a/');
  });

  it('what it lets through has no dot segment, no encoded slash, no empty inner segment, and is stable (property)', () => {
    fc.assert(
      fc.property(rawPath, (path) => {
        const out = outcome(path);
        if (out === '400') return;
        const segments = out.slice(1).split('/');
        for (const s of segments.slice(0, -1)) expect(s).not.toBe('');
        for (const s of segments) expect(['.', '..', '%2e', '%2E', '%2e%2e']).not.toContain(s);
        expect(out).not.toMatch(/%2f|\\/i);
        expect(normalizePath(out)).toBe(out);
      }),
      { numRuns: 2000 },
    );
  });
});
