import { describe, expect, it } from 'vitest';
import { App } from '../../../src/index.ts';
import { csrf } from '../../../src/middleware/csrf/index.ts';
import { session } from '../../../src/middleware/session/index.ts';

const KEY = 'csrf-async-origin-secret-0123456789abcdef';

function csrfApp(origin: (origin: string) => boolean | Promise<boolean>) {
  return new App()
    .use(session({ keys: [KEY] }))
    .use(csrf({ origin }))
    .post('/', (c) => c.text('ok'));
}

const post = (origin: string) => ({ method: 'POST', headers: { origin, cookie: 'sid=x' } });

describe('csrf() with an async origin function', () => {
  it('lets through an origin the lookup allows, and refuses one it does not', async () => {
    const app = csrfApp(async (origin) => {
      await new Promise((r) => setTimeout(r, 1));
      return origin === 'https://partner.example';
    });
    // No session cookie (sid is not rove.sid): past the origin check there is no token to ask for.
    const partner = await app.request('/', post('https://partner.example'));
    expect(await partner.text()).toBe('ok');
    const evil = await app.request('/', { ...post('https://evil.example'), headers: { ...post('https://evil.example').headers, accept: 'application/json' } });
    expect(evil.status).toBe(403);
    expect(((await evil.json()) as { detail: string }).detail).toMatch(/origin/);
  });

  it('refuses a lookup that resolves to anything but true', async () => {
    for (const answer of ['yes', 1, {}]) {
      const app = csrfApp((async () => answer) as never);
      const res = await app.request('/', { ...post('https://evil.example'), headers: { ...post('https://evil.example').headers, accept: 'application/json' } });
      expect(((await res.json()) as { detail: string }).detail).toMatch(/origin/);
    }
  });
});
