import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { queryValue } from '../src/core/request.ts';
import { App } from '../src/index.ts';

// The app reads what follows the URL's '?'; URLSearchParams drops one leading '?' of its own,
// so the reference gets one to drop (a query that itself starts with '?' keeps it, as in a URL).
const reference = (qs: string, name: string) => new URLSearchParams(`?${qs}`).get(name);

// Query strings built from the pieces that matter: separators, escapes (valid and broken), plus signs and other text.
const piece = fc.oneof(
  fc.constantFrom('&', '=', '+', '%', '%20', '%2B', '%26', '%3D', '%C3%A9', '%E2%82', '%zz', 'a', 'b', 'name', 'id', 'é', '\uD800', ''),
  fc.string({ maxLength: 4 }),
);
const queryString = fc.array(piece, { maxLength: 12 }).map((parts) => parts.join(''));
const key = fc.oneof(fc.constantFrom('a', 'b', 'name', 'id', 'a b', 'a+b', 'é', '', '%20'), fc.string({ maxLength: 3 }));

describe('queryValue', () => {
  it('agrees with URLSearchParams whenever it answers', () => {
    fc.assert(
      fc.property(queryString, key, (qs, name) => {
        const found = queryValue(qs, name);
        if (found !== undefined) expect(found).toBe(reference(qs, name));
      }),
      { numRuns: 5000 },
    );
  });

  it('answers without the full parse for plain query strings', () => {
    const plain = fc.array(fc.tuple(fc.stringMatching(/^[a-z0-9_.-]{0,5}$/), fc.option(fc.stringMatching(/^[a-z0-9_.=-]{0,5}$/))), { maxLength: 6 });
    fc.assert(
      fc.property(plain, fc.stringMatching(/^[a-z0-9_.-]{0,5}$/), (pairs, name) => {
        const qs = pairs.map(([k, v]) => (v === null ? k : `${k}=${v}`)).join('&');
        expect(queryValue(qs, name)).toBe(reference(qs, name));
      }),
    );
  });

  it('leaves escaped query strings to the full parse', () => {
    expect(queryValue('x=1&name=a%20b+c', 'name')).toBe(undefined);
    expect(queryValue('x=1&&name=2', '')).toBe(null);
    expect(queryValue('=1&name=2', '')).toBe('1');
    expect(queryValue('name&x=1', 'name')).toBe('');
    expect(queryValue('x=1', 'name')).toBe(null);
    expect(queryValue('na%6De=1', 'name')).toBe(undefined);
    expect(queryValue('name=%zz', 'name')).toBe(undefined);
  });

  it('c.req.query(name) gives what URLSearchParams gives, through either path', async () => {
    const app = new App().get('/', (c) => c.json({ name: c.req.query('name') ?? null, all: c.req.query() }));
    const cases = ['?name=bun', '?x=1&name=a%20b', '?na%6De=escaped&name=second', '?name=%zz', '?other=1', ''];
    for (const q of cases) {
      const res = await app.fetch(new Request(`http://localhost/${q}`));
      const params = new URLSearchParams(q.slice(1));
      expect(await res.json()).toEqual({ name: params.get('name'), all: Object.fromEntries([...params].reverse()) });
    }
  });
});
