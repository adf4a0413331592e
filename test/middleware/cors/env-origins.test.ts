// cors({ origins: (c) => … }): the allowed origins from c.env (Workers), checked once per list, failing closed.
import { afterEach, describe, expect, it, vi } from 'vitest';
import { ConfigError } from '../../../src/core/from-context.ts';
import { App } from '../../../src/index.ts';
import { cors } from '../../../src/middleware/cors/index.ts';
import '../../../src/testing/index.ts';

const APP = 'https://app.example';
const NEXT = 'https://next.example';
const EVIL = 'https://evil.example';

type Bindings = { ALLOWED_ORIGINS?: string };

function makeApp(options: Parameters<typeof cors<{ Bindings: Bindings }>>[0]) {
  const app = new App<{ Bindings: Bindings }>();
  const errors: unknown[] = [];
  app.onError((error, c) => {
    errors.push(error);
    return c.text('failed', (error as { status?: number }).status ?? 500);
  });
  app.use('/api', cors(options));
  app.get('/api/notes', (c) => c.json([]));
  return { app, errors };
}

const preflight = (app: App<any>, origin: string, env: Bindings) =>
  app.request('/api/notes', { method: 'OPTIONS', headers: { origin, 'access-control-request-method': 'PUT' } }, env);
const get = (app: App<any>, env: Bindings, origin?: string) => app.request('/api/notes', { headers: origin === undefined ? {} : { origin } }, env);
const fromEnv = (c: { env: Bindings }) => (c.env.ALLOWED_ORIGINS as string).split(',');

describe('cors > origins from the context', () => {
  afterEach(() => vi.restoreAllMocks());

  it('allows the origins c.env lists, on preflights and other requests', async () => {
    const { app } = makeApp({ origins: fromEnv, credentials: true });
    const env = { ALLOWED_ORIGINS: `${APP},https://Other.example:443/` };
    const pre = await preflight(app, APP, env);
    expect(pre.status).toBe(204);
    expect(pre.headers.get('access-control-allow-origin')).toBe(APP);
    expect(pre.headers.get('access-control-allow-credentials')).toBe('true');
    expect((await get(app, env, 'https://other.example')).headers.get('access-control-allow-origin')).toBe('https://other.example');
    const refused = await get(app, env, EVIL);
    expect(refused.status).toBe(200);
    expect(refused.headers.get('access-control-allow-origin')).toBeNull();
    expect(refused.headers.get('vary')).toBe('Origin');
    expect((await preflight(app, EVIL, env)).status).toBe(403);
  });

  it('honours a changed list at once, remembered preflight answers included', async () => {
    const { app } = makeApp({ origins: fromEnv });
    expect((await preflight(app, APP, { ALLOWED_ORIGINS: APP })).status).toBe(204);
    expect((await preflight(app, APP, { ALLOWED_ORIGINS: NEXT })).status).toBe(403);
    expect((await get(app, { ALLOWED_ORIGINS: NEXT }, APP)).headers.get('access-control-allow-origin')).toBeNull();
    expect((await preflight(app, NEXT, { ALLOWED_ORIGINS: NEXT })).status).toBe(204);
    expect((await preflight(app, APP, { ALLOWED_ORIGINS: APP })).status).toBe(204);
  });

  it('checks a list once, and calls the function only for requests with an Origin', async () => {
    const origins = vi.fn(fromEnv);
    const { app } = makeApp({ origins });
    const env = { ALLOWED_ORIGINS: APP };
    expect((await get(app, env)).status).toBe(200);
    expect(origins).not.toHaveBeenCalled();
    const parse = vi.spyOn(URL.prototype, 'origin', 'get');
    await get(app, env, APP);
    const once = parse.mock.calls.length;
    expect(once).toBeGreaterThan(0);
    for (let i = 0; i < 3; i++) await get(app, { ...env }, APP);
    expect(origins).toHaveBeenCalledTimes(4);
    expect(parse).toHaveBeenCalledTimes(once); // the list was normalised on the first request only
  });

  it.each([
    ['an unset variable', fromEnv],
    ['nothing', () => undefined],
    ['an empty origin', () => ['']],
    ['a wildcard', () => '*'],
    ['a path', () => [`${APP}/x`]],
    ['a number', () => [1]],
  ])('fails closed with a 500 and a logged ConfigError when it gives %s', async (_, origins) => {
    const log = vi.spyOn(console, 'error').mockImplementation(() => {});
    const { app, errors } = makeApp({ origins: origins as never });
    const pre = await preflight(app, APP, {});
    expect(pre.status).toBe(500);
    expect(pre.headers.get('access-control-allow-origin')).toBeNull();
    const simple = await get(app, {}, APP);
    expect(simple.status).toBe(500);
    expect(simple.headers.get('access-control-allow-origin')).toBeNull();
    expect(errors.every((e) => e instanceof ConfigError)).toBe(true);
    expect(log).toHaveBeenCalled();
    // A request without Origin needs no list: served.
    expect((await get(app, {})).status).toBe(200);
  });

  it('never allows the origin when a function throws, origins or origin', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => {});
    const boom = () => {
      throw new Error('boom');
    };
    for (const options of [{ origins: boom }, { origin: boom }]) {
      const { app } = makeApp(options);
      const pre = await preflight(app, APP, {});
      expect(pre.status).toBe(500);
      expect(pre.headers.get('access-control-allow-origin')).toBeNull();
      expect((await get(app, {}, APP)).headers.get('access-control-allow-origin')).toBeNull();
    }
  });

  it('refuses origin and origins together, and fixed values in origins', () => {
    expect(() => cors({ origin: APP, origins: () => [APP] })).toThrow(/not both/);
    expect(() => cors({ origins: [APP] as never })).toThrow(/function of the context/);
  });

  it('types c.env with the app Bindings', () => {
    const app = new App<{ Bindings: { ALLOWED_ORIGINS: string; PORT: number } }>();
    app.use(cors({ origins: (c) => c.env.ALLOWED_ORIGINS.split(',') }));
    // @ts-expect-error: PORT is a number
    app.use(cors({ origins: (c) => c.env.PORT }));
    expect(app).toBeDefined();
  });
});
