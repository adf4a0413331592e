// The runtime-free rules of rove/static: paths, ranges, conditional requests,
// Accept-Encoding and content types, with property tests for the parsers.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { etagMatches, fileEtag, notModified, parseHttpDate, rangeApplies } from '../../../src/middleware/static/conditional.ts';
import { addVary, pickEncoding } from '../../../src/middleware/static/encoding.ts';
import { isCompressible, mimeType } from '../../../src/middleware/static/mime.ts';
import { normalizePrefix, staticPath } from '../../../src/middleware/static/path.ts';
import { parseRange } from '../../../src/middleware/static/range.ts';

describe('staticPath', () => {
  it('maps paths under the prefix to relative file names', () => {
    expect(staticPath('/static/app.css', '/static')).toEqual({ kind: 'file', rel: 'app.css', dir: false });
    expect(staticPath('/static/a/b.js', '/static')).toEqual({ kind: 'file', rel: 'a/b.js', dir: false });
    expect(staticPath('/static/', '/static')).toEqual({ kind: 'file', rel: '', dir: true });
    expect(staticPath('/static', '/static')).toEqual({ kind: 'file', rel: '', dir: false });
    expect(staticPath('/static/docs/', '/static')).toEqual({ kind: 'file', rel: 'docs', dir: true });
    expect(staticPath('/static/a%20b.txt', '/static')).toEqual({ kind: 'file', rel: 'a b.txt', dir: false });
    expect(staticPath('/x.css', '')).toEqual({ kind: 'file', rel: 'x.css', dir: false });
  });

  it('skips paths outside the prefix', () => {
    expect(staticPath('/staticx/a', '/static').kind).toBe('skip');
    expect(staticPath('/other', '/static').kind).toBe('skip');
    expect(staticPath('/', '/static').kind).toBe('skip');
  });

  it('rejects every way out of the root', () => {
    for (const p of [
      '/static/../x',
      '/static/%2e%2e/x',
      '/static/%2E%2e/x',
      '/static/./x',
      '/static/%2e/x',
      '/static/..%2fx',
      '/static/a%2f..%2f..%2fx',
      '/static/..%5cx',
      '/static/a\\..\\x',
      '/static/%00',
      '/static/a%00.css',
      '/static/a%0a.css',
      '/static//x',
      '/static/a//x',
      '/static/%zz',
      '/static/.env',
      '/static/.git/config',
      `/static/${'a/'.repeat(100)}x`,
      `/static/${'x'.repeat(3000)}`,
    ]) {
      expect(staticPath(p, '/static').kind, p).toBe('reject');
    }
    expect(staticPath('/static/.well-known/x', '/static', true).kind).toBe('file');
  });

  it('never yields a name that can climb, in any encoding (property)', () => {
    const piece = fc.constantFrom(
      'a',
      'b.css',
      '.',
      '..',
      '%2e',
      '%2E',
      '%2e%2e',
      '.%2e',
      '%5c',
      '\\',
      '%2f',
      '%2F',
      '%00',
      '',
      '%',
      '%25',
      '%c0%ae',
      'é',
      '%C3%A9',
    );
    fc.assert(
      fc.property(fc.array(piece, { minLength: 1, maxLength: 8 }), (parts) => {
        const r = staticPath(`/s/${parts.join('/')}`, '/s');
        if (r.kind !== 'file') return;
        const names = r.rel === '' ? [] : r.rel.split('/');
        for (const n of names) {
          expect(n).not.toBe('');
          expect(n).not.toBe('.');
          expect(n).not.toBe('..');
          expect(n).not.toMatch(/[\\/\0]/);
          expect(n.startsWith('.')).toBe(false);
        }
      }),
      { numRuns: 2000 },
    );
  });

  it('never throws on arbitrary input (property)', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 300 }), (s) => {
        const r = staticPath(`/s/${s}`, '/s');
        expect(['file', 'reject', 'skip']).toContain(r.kind);
        if (r.kind === 'file') expect(r.rel.split('/')).not.toContain('..');
      }),
      { numRuns: 3000 },
    );
  });

  it('normalises prefixes and refuses odd ones', () => {
    expect(normalizePrefix(undefined)).toBe('');
    expect(normalizePrefix('/')).toBe('');
    expect(normalizePrefix('static/')).toBe('/static');
    expect(normalizePrefix('/a/b//')).toBe('/a/b');
    expect(() => normalizePrefix('/a/../b')).toThrow(TypeError);
    expect(() => normalizePrefix('/a//b')).toThrow(TypeError);
  });
});

describe('parseRange', () => {
  it('reads single byte ranges', () => {
    expect(parseRange('bytes=0-9', 100)).toEqual({ kind: 'partial', start: 0, end: 9 });
    expect(parseRange('bytes=90-', 100)).toEqual({ kind: 'partial', start: 90, end: 99 });
    expect(parseRange('bytes=-10', 100)).toEqual({ kind: 'partial', start: 90, end: 99 });
    expect(parseRange('bytes=-1000', 100)).toEqual({ kind: 'partial', start: 0, end: 99 });
    expect(parseRange('bytes=0-1000', 100)).toEqual({ kind: 'partial', start: 0, end: 99 });
    expect(parseRange(' Bytes = 5-5 ', 100)).toEqual({ kind: 'partial', start: 5, end: 5 });
  });

  it('answers 416 for ranges past the end, and the whole file for anything else', () => {
    expect(parseRange('bytes=100-', 100).kind).toBe('unsatisfiable');
    expect(parseRange('bytes=-0', 100).kind).toBe('unsatisfiable');
    expect(parseRange('bytes=0-0', 0).kind).toBe('unsatisfiable');
    for (const h of [
      null,
      '',
      'bytes=',
      'bytes=-',
      'bytes=9-1',
      'bytes=a-b',
      'items=0-1',
      'bytes=0-1,2-3',
      'bytes=1-2-3',
      'bytes=0x1-2',
      `bytes=0-${'1'.repeat(300)}`,
    ]) {
      expect(parseRange(h, 100).kind, String(h)).toBe('full');
    }
    expect(parseRange(`bytes=0-${'9'.repeat(40)}`, 100)).toEqual({ kind: 'partial', start: 0, end: 99 });
    expect(parseRange(`bytes=${'9'.repeat(40)}-`, 100).kind).toBe('unsatisfiable');
  });

  it('always yields a range inside the file (property)', () => {
    fc.assert(
      fc.property(fc.nat(1e9), fc.option(fc.nat(2e9)), fc.option(fc.nat(2e9)), (size, a, b) => {
        const header = `bytes=${a ?? ''}-${b ?? ''}`;
        const r = parseRange(header, size);
        if (r.kind === 'partial') {
          expect(r.start).toBeGreaterThanOrEqual(0);
          expect(r.end).toBeGreaterThanOrEqual(r.start);
          expect(r.end).toBeLessThan(size);
        }
      }),
      { numRuns: 3000 },
    );
    fc.assert(
      fc.property(fc.string({ maxLength: 300 }), fc.nat(1e6), (s, size) => {
        const r = parseRange(s, size);
        if (r.kind === 'partial') expect(r.end).toBeLessThan(size);
      }),
    );
  });
});

const hdr = (init: Record<string, string> = {}) => {
  const h = new Headers(init);
  return (n: string) => h.get(n);
};

describe('conditional requests', () => {
  const tag = fileEtag(4096, 1_700_000_000_123);
  const mtime = 1_700_000_000_123;
  const lm = new Date(mtime).toUTCString();

  it('makes weak validators from size and mtime', () => {
    expect(tag).toBe('W/"1000-18bcfe5687b"');
    expect(fileEtag(1, Number.NaN)).toBe('W/"1-0"');
  });

  it('matches If-None-Match weakly, in lists and with *', () => {
    expect(etagMatches(tag, tag)).toBe(true);
    expect(etagMatches(tag.slice(2), tag)).toBe(true);
    expect(etagMatches(`"x", ${tag}`, tag)).toBe(true);
    expect(etagMatches('*', tag)).toBe(true);
    expect(etagMatches('"x"', tag)).toBe(false);
    expect(etagMatches(`${'"x", '.repeat(2000)}${tag}`, tag)).toBe(false); // over the limit: ignored
  });

  it('answers If-Modified-Since at second precision, and If-None-Match first', () => {
    expect(notModified(hdr({ 'if-modified-since': lm }), tag, mtime)).toBe(true);
    expect(notModified(hdr({ 'if-modified-since': new Date(mtime - 1000).toUTCString() }), tag, mtime)).toBe(false);
    expect(notModified(hdr({ 'if-modified-since': lm, 'if-none-match': '"other"' }), tag, mtime)).toBe(false);
    expect(notModified(hdr({ 'if-modified-since': 'garbage' }), tag, mtime)).toBe(false);
    expect(notModified(hdr({ 'if-modified-since': lm }), tag, undefined)).toBe(false);
    expect(notModified(hdr(), tag, mtime)).toBe(false);
  });

  it('ignores bogus dates (property)', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 80 }), (s) => {
        const t = parseHttpDate(s);
        expect(Number.isNaN(t) || Number.isFinite(t)).toBe(true);
      }),
    );
    expect(parseHttpDate('2020')).toBeNaN();
    expect(parseHttpDate(lm)).toBe(Math.floor(mtime / 1000) * 1000);
  });

  it('applies If-Range only on an exact date or a strong tag', () => {
    expect(rangeApplies(null, tag, lm)).toBe(true);
    expect(rangeApplies(lm, tag, lm)).toBe(true);
    expect(rangeApplies('Thu, 01 Jan 1970 00:00:00 GMT', tag, lm)).toBe(false);
    expect(rangeApplies(tag, tag, lm)).toBe(false); // weak tags never satisfy If-Range
    expect(rangeApplies('"s"', '"s"', undefined)).toBe(true);
  });
});

describe('Accept-Encoding and content types', () => {
  it('picks the first offered encoding the client accepts', () => {
    expect(pickEncoding('gzip, deflate, br', ['br', 'gzip'])).toBe('br');
    expect(pickEncoding('gzip', ['br', 'gzip'])).toBe('gzip');
    expect(pickEncoding('br;q=0, gzip;q=0.5', ['br', 'gzip'])).toBe('gzip');
    expect(pickEncoding('*', ['br', 'gzip'])).toBe('br');
    expect(pickEncoding('*;q=0', ['gzip'])).toBeUndefined();
    expect(pickEncoding('identity', ['gzip'])).toBeUndefined();
    expect(pickEncoding(null, ['gzip'])).toBeUndefined();
    expect(pickEncoding(`gzip, ${'x, '.repeat(300)}`, ['gzip'])).toBeUndefined();
    expect(pickEncoding('gzip;q=abc', ['gzip'])).toBeUndefined();
  });

  it('adds to Vary once', () => {
    expect(addVary(null, 'Accept-Encoding')).toBe('Accept-Encoding');
    expect(addVary('Origin', 'Accept-Encoding')).toBe('Origin, Accept-Encoding');
    expect(addVary('origin, accept-encoding', 'Accept-Encoding')).toBe('origin, accept-encoding');
    expect(addVary('*', 'Accept-Encoding')).toBe('*');
  });

  it('knows the usual types', () => {
    expect(mimeType('a.css')).toBe('text/css; charset=utf-8');
    expect(mimeType('a/b.JS')).toBe('text/javascript; charset=utf-8');
    expect(mimeType('x.html')).toBe('text/html; charset=utf-8');
    expect(mimeType('x.woff2')).toBe('font/woff2');
    expect(mimeType('x.unknown')).toBe('application/octet-stream');
    expect(mimeType('noext')).toBe('application/octet-stream');
    expect(mimeType('dir.d/noext')).toBe('application/octet-stream');
    expect(mimeType('x.toString')).toBe('application/octet-stream');
    expect(mimeType('x.__proto__')).toBe('application/octet-stream');
    expect(mimeType('x.foo', { foo: 'text/foo' })).toBe('text/foo');
    expect(isCompressible('text/html; charset=utf-8')).toBe(true);
    expect(isCompressible('application/vnd.api+json')).toBe(true);
    expect(isCompressible('image/png')).toBe(false);
  });
});

describe('Recent', () => {
  it('remembers for its ttl, and stays bounded', async () => {
    const { Recent } = await import('../../../src/middleware/static/recent.ts');
    const r = new Recent<string>(1000, 3);
    r.set('a', 'A', 0);
    expect(r.get('a', 999)).toBe('A');
    expect(r.get('a', 1001)).toBeUndefined();
    for (const k of ['a', 'b', 'c', 'd']) r.set(k, k, 0);
    expect(r.get('a', 1)).toBeUndefined(); // cleared when full
    expect(r.get('d', 1)).toBe('d');
    const off = new Recent<string>(0);
    off.set('a', 'A');
    expect(off.get('a')).toBeUndefined();
  });
});
