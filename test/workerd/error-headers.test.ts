/// <reference types="@cloudflare/vitest-pool-workers" />
// Inside workerd: an HttpError's headers reach its problem+json answer as `new Headers(init)`
// would hold them, each Set-Cookie on its own (appendHeaders copies through a Headers there).
import { describe, expect, it } from 'vitest';
import { App, HttpError } from '../../src/index.ts';

const cookies = ['a=; Max-Age=0', 'b=; Max-Age=0'];

describe('error headers inside workerd', () => {
  for (const [name, headers] of [
    ['pairs', [['www-authenticate', 'Basic realm="x"'], ...cookies.map((v) => ['set-cookie', v])]],
    ['a Headers', new Headers([['www-authenticate', 'Basic realm="x"'], ...cookies.map((v): [string, string] => ['set-cookie', v])])],
  ] as const) {
    it(`given as ${name}, keep each Set-Cookie apart`, async () => {
      const app = new App().get('/', () => {
        throw new HttpError(401, 'no', { headers: headers as HeadersInit });
      });
      const res = await app.request('/');
      expect(res.status).toBe(401);
      expect(res.headers.get('content-type')).toBe('application/problem+json');
      expect(res.headers.get('www-authenticate')).toBe('Basic realm="x"');
      expect(res.headers.getSetCookie()).toEqual(cookies);
    });
  }
});
