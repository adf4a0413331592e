import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { App } from '../../../src/index.ts';
import { cors } from '../../../src/middleware/cors/index.ts';

const ALLOWED = new Set(['https://app.example']);
const lookup = async (origin: string) => {
  await new Promise((r) => setTimeout(r, 1));
  return ALLOWED.has(origin);
};

function corsApp(origin: Parameters<typeof cors>[0] extends infer O ? (O extends { origin?: infer F } ? F : never) : never) {
  return new App()
    .use(cors({ origin, credentials: true }))
    .put('/r', (c) => c.text('put'))
    .get('/r', (c) => c.text('got'));
}

const preflight = (origin: string) => ({ method: 'OPTIONS', headers: { origin, 'access-control-request-method': 'PUT' } });

describe('cors() with an async origin function', () => {
  it('answers a preflight when the lookup has answered', async () => {
    const app = corsApp((origin) => lookup(origin));
    const ok = await app.request('/r', preflight('https://app.example'));
    expect(ok.status).toBe(204);
    expect(ok.headers.get('access-control-allow-origin')).toBe('https://app.example');
    expect(ok.headers.get('access-control-allow-credentials')).toBe('true');
    expect((await app.request('/r', preflight('https://evil.example'))).status).toBe(403);
  });

  it('adds the headers to an actual request only for an allowed origin', async () => {
    const app = corsApp((origin) => lookup(origin));
    const ok = await app.request('/r', { headers: { origin: 'https://app.example' } });
    expect(ok.headers.get('access-control-allow-origin')).toBe('https://app.example');
    const no = await app.request('/r', { headers: { origin: 'https://evil.example' } });
    expect(await no.text()).toBe('got');
    expect(no.headers.get('access-control-allow-origin')).toBeNull();
  });

  it('allows only true or the origin itself, never another truthy answer', async () => {
    for (const answer of ['yes', 1, {}, 'https://other.example']) {
      const app = corsApp((async () => answer) as never);
      expect((await app.request('/r', preflight('https://app.example'))).status, String(answer)).toBe(403);
    }
    expect((await corsApp(async (o) => o).request('/r', preflight('https://app.example'))).status).toBe(204);
  });

  it('a lookup that fails fails the request, without CORS headers', async () => {
    const app = corsApp(async () => {
      throw new Error('db down');
    });
    app.onError((_e, c) => c.text('failed', 500));
    const res = await app.request('/r', preflight('https://app.example'));
    expect(res.status).toBe(500);
    expect(res.headers.get('access-control-allow-origin')).toBeNull();
  });

  it('agrees with the same predicate answered synchronously (property)', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom('https://app.example', 'https://evil.example', 'http://app.example', 'null'),
        fc.boolean(),
        async (origin, asPreflight) => {
          const sync = corsApp((o) => ALLOWED.has(o));
          const async_ = corsApp(async (o) => ALLOWED.has(o));
          const init = asPreflight ? preflight(origin) : { headers: { origin } };
          const [a, b] = await Promise.all([sync.request('/r', init), async_.request('/r', init)]);
          expect(b.status).toBe(a.status);
          expect(b.headers.get('access-control-allow-origin')).toBe(a.headers.get('access-control-allow-origin'));
        },
      ),
      { numRuns: 40 },
    );
  });
});
