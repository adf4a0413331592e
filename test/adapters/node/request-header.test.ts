import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { NodeRequest } from '../../../adapters/node/request.ts';

// NodeRequest.header(name) reads node's raw header list instead of building a Headers object;
// it must answer exactly what headers.get(name) answers, repeats, case and spacing included.

function request(rawHeaders: string[]): NodeRequest {
  const incoming = { rawHeaders, headers: {}, method: 'GET', url: '/', socket: {} };
  return new NodeRequest(incoming as never, {} as never, 'localhost');
}

const NAMES = ['Accept', 'accept', 'X-Id', 'x-id', 'AUTHORIZATION', 'Cookie', 'x-a', 'X-AB'];
const value = fc.stringMatching(/^[ \t]?[!-~]{0,6}( [!-~]{1,4})?[ \t]?$/);

describe('NodeRequest.header', () => {
  it('answers as headers.get does, for any raw header list', () => {
    fc.assert(
      fc.property(fc.array(fc.tuple(fc.constantFrom(...NAMES), value), { maxLength: 8 }), fc.constantFrom(...NAMES, 'missing'), (pairs, name) => {
        const raw = pairs.flat();
        const expected = new Headers(pairs).get(name);
        expect(request(raw).header(name)).toBe(expected);
        // Once the Headers object exists (and may have been changed), it is the answer.
        const r = request(raw);
        r.headers.set('x-late', 'yes');
        expect(r.header('x-late')).toBe('yes');
      }),
      { numRuns: 1000 },
    );
  });

  it('joins repeated Cookie lines with "; ", as Headers does', () => {
    expect(request(['Cookie', 'a=1', 'cookie', 'b=2', 'X-Id', '1', 'x-id', '2']).header('cookie')).toBe('a=1; b=2');
    expect(request(['Cookie', '', 'Cookie', '']).header('cookie')).toBe(
      new Headers([
        ['Cookie', ''],
        ['Cookie', ''],
      ]).get('cookie'),
    );
    expect(request(['X-Id', '1', 'x-id', '2']).header('x-id')).toBe('1, 2');
  });

  it('refuses a name Headers refuses', () => {
    expect(() => request([]).header('bad name')).toThrow(TypeError);
    expect(() => new Headers().get('bad name')).toThrow(TypeError);
    // A valid name asked for again (now remembered) still answers null; a bad one still throws.
    expect(request([]).header('x-absent')).toBeNull();
    expect(request([]).header('x-absent')).toBeNull();
    expect(() => request([]).header('bad name')).toThrow(TypeError);
  });
});
