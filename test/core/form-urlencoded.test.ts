// c.req.formData() parses urlencoded bodies itself (URLSearchParams over the text) rather than
// through a second Response: it must give the same entries as the Fetch spec's parser.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { App } from '../../src/index.ts';

const entries = async (data: FormData) => [...data.entries()].map(([k, v]) => [k, String(v)]);

describe('urlencoded forms', () => {
  it('match Response.formData() for any body, malformed escapes and odd bytes included', async () => {
    const app = new App().post('/', async (c) => c.json(await entries(await c.req.formData())));
    const piece = fc.oneof(fc.string(), fc.constantFrom('%', '%2', '%zz', '%e2%82', '+', '=', '&', '&&', '__proto__=1', '%00', '\uD800'));
    await fc.assert(
      fc.asyncProperty(fc.array(piece, { maxLength: 8 }), async (parts) => {
        const body = parts.join('');
        const type = 'application/x-www-form-urlencoded;charset=UTF-8';
        const want = await entries(await new Response(body, { headers: { 'content-type': type } }).formData());
        const res = await app.fetch(new Request('http://localhost/', { method: 'POST', body, headers: { 'content-type': type } }));
        expect(await res.json()).toEqual(want);
      }),
      { numRuns: 300 },
    );
  });
});
