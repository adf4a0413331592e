// findCookie (one name, read once: the session middleware) answers exactly what parseCookies would.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { findCookie, parseCookies } from '../../src/http/cookies.ts';

describe('findCookie', () => {
  it('gives the first value of a name, trimmed, unquoted and decoded, as parseCookies does', () => {
    const header = ' a = 1 ;b="two";a=3; c=%41%42; d=%zz; \tsid\t=x ; =empty; novalue';
    for (const name of ['a', 'b', 'c', 'd', 'sid', 'missing', '', 'novalue']) expect(findCookie(header, name)).toBe(parseCookies(header)[name]);
    expect(findCookie(null, 'a')).toBeUndefined();
    expect(findCookie('a\u00a0=1', 'a')).toBeUndefined(); // only SP and HTAB are trimmed
  });

  it('agrees with parseCookies on any header and name, within the same part limit (property)', () => {
    const piece = fc.constantFrom('a', 'b', 'sid', ' ', '\t', '=', ';', '"', '%', '%41', '%zz', '\u00a0', 'x');
    const text = fc.array(piece, { maxLength: 30 }).map((xs) => xs.join(''));
    fc.assert(
      fc.property(text, fc.constantFrom('a', 'b', 'sid', 'x'), fc.integer({ min: 1, max: 6 }), (header, name, limit) => {
        expect(findCookie(header, name, limit)).toBe(parseCookies(header, limit)[name]);
      }),
      { numRuns: 2000 },
    );
  });
});
