// csrf({ origins: (c) => … }): other allowed origins from c.env (Workers), checked once per list; a bad list refuses.
import { afterEach, describe, expect, it, vi } from 'vitest';
import { ConfigError } from '../../../src/core/from-context.ts';
import { App } from '../../../src/index.ts';
import { csrf } from '../../../src/middleware/csrf/index.ts';
import '../../../src/testing/index.ts';

const PUBLIC = 'https://notes.example';
const NEXT = 'https://next.example';

type Bindings = { PUBLIC_ORIGIN?: string };

function makeApp(options: Parameters<typeof csrf<{ Bindings: Bindings }>>[0]) {
  const app = new App<{ Bindings: Bindings }>();
  const errors: unknown[] = [];
  app.onError((error, c) => {
    errors.push(error);
    return c.text('failed', (error as { status?: number }).status ?? 500);
  });
  // The origin rules alone: tokens are csrf.test.ts's subject.
  app.use(csrf({ token: false, ...options }));
  app.post('/submit', (c) => c.text('done'));
  return { app, errors };
}

const post = (app: App<any>, origin: string, env: Bindings) =>
  app.request('/submit', { method: 'POST', headers: { origin, 'content-type': 'application/json' }, body: '{}' }, env);

describe('csrf > origins from the context', () => {
  afterEach(() => vi.restoreAllMocks());

  it('lets in the origin c.env names, besides the request’s own', async () => {
    const { app } = makeApp({ origins: (c) => [c.env.PUBLIC_ORIGIN as string] });
    expect((await post(app, PUBLIC, { PUBLIC_ORIGIN: PUBLIC })).status).toBe(200);
    expect((await post(app, 'http://localhost', { PUBLIC_ORIGIN: PUBLIC })).status).toBe(200);
    expect((await post(app, 'https://evil.example', { PUBLIC_ORIGIN: PUBLIC })).status).toBe(403);
  });

  it('honours a changed origin at once, and takes a promise', async () => {
    const { app } = makeApp({ origins: async (c) => c.env.PUBLIC_ORIGIN as string });
    expect((await post(app, PUBLIC, { PUBLIC_ORIGIN: PUBLIC })).status).toBe(200);
    expect((await post(app, PUBLIC, { PUBLIC_ORIGIN: NEXT })).status).toBe(403);
    expect((await post(app, NEXT, { PUBLIC_ORIGIN: NEXT })).status).toBe(200);
  });

  it('calls the function only for requests from another origin', async () => {
    const origins = vi.fn(() => [PUBLIC]);
    const { app } = makeApp({ origins });
    await post(app, 'http://localhost', {});
    await app.request('/submit', undefined, {});
    expect(origins).not.toHaveBeenCalled();
    await post(app, PUBLIC, {});
    expect(origins).toHaveBeenCalledTimes(1);
  });

  it.each([
    ['an unset variable', (c: { env: Bindings }) => [c.env.PUBLIC_ORIGIN]],
    ['nothing', () => undefined],
    ['a path', () => `${PUBLIC}/x`],
    ['an empty string', () => ''],
  ])('refuses with a 500 and a logged ConfigError when it gives %s', async (_, origins) => {
    const log = vi.spyOn(console, 'error').mockImplementation(() => {});
    const { app, errors } = makeApp({ origins: origins as never });
    expect((await post(app, PUBLIC, {})).status).toBe(500);
    expect(errors[0]).toBeInstanceOf(ConfigError);
    expect(log).toHaveBeenCalled();
    // Its own origin needs no list.
    expect((await post(app, 'http://localhost', {})).status).toBe(200);
  });

  it('refuses when the function throws, origins or origin', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => {});
    const boom = () => {
      throw new Error('boom');
    };
    for (const options of [{ origins: boom }, { origin: boom }]) {
      const { app } = makeApp(options);
      expect((await post(app, PUBLIC, {})).status).toBe(500);
    }
  });

  it('refuses origin and origins together, and fixed values in origins', () => {
    expect(() => csrf({ origin: PUBLIC, origins: () => [PUBLIC] })).toThrow(/not both/);
    expect(() => csrf({ origins: PUBLIC as never })).toThrow(/function of the context/);
  });
});
