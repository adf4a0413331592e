// The probe app: one route per defect hostile probes found, so hostile.test.ts can reproduce each over real HTTP.
import { App, type Handler, HttpError, Router, validate } from 'rove';
import { setCookie } from 'rove/cookie';
import { redirectTrailingSlash } from 'rove/trailing-slash';
import { trustProxy } from 'rove/trust-proxy';
import { z } from 'zod';

/** What a server of the probe is started with; each entry reads it from its environment. */
export interface ProbeOptions {
  /** `trustProxy` of the App: the addresses and CIDRs of trusted proxies. */
  trustProxy?: string[];
  /** `trailingSlash: redirectTrailingSlash`, with a catch-all `/:page` so a redirect has somewhere to go. */
  redirect?: boolean;
  /** Listen for `request:complete`, and answer the last one's status and address on `/last`. */
  observe?: boolean;
}

/** The probe's options from environment variables (bindings on Workers). */
export function probeOptions(get: (name: string) => string | undefined): ProbeOptions {
  const trust = get('PROBE_TRUST_PROXY');
  return {
    ...(trust ? { trustProxy: trust.split(',').map((s) => s.trim()) } : {}),
    redirect: get('PROBE_TRAILING_SLASH') === 'redirect',
    observe: get('PROBE_OBSERVE') === '1',
  };
}

/** Server timeouts for the node and bun entries (`serve()` options). */
export function serveTimeouts(get: (name: string) => string | undefined): { headersTimeoutMs?: number } {
  const ms = get('PROBE_HEADERS_TIMEOUT_MS');
  return ms ? { headersTimeoutMs: Number(ms) } : {};
}

/** A guard that always refuses: when it runs, the answer is 401. */
const guard: Handler = () => {
  throw new HttpError(401, 'The guard ran');
};

/** The two prefix-guard shapes of the issue, on a root app or a sub-app. */
function guarded(app: App): void {
  app.use('/admin', guard);
  app.get('/:section/report', (c) => c.json({ section: c.req.param('section') }));
  app.use('/files/secret', guard);
  app.get('/files/*', (c) => c.json({ rest: c.req.param('*') ?? null }));
}

/** What a value is, in JSON: a string as is, undefined as null, anything else by its type. */
function describe(value: unknown): string | null {
  if (value === undefined) return null;
  return typeof value === 'string' ? value : `<${typeof value}>`;
}

/** Whether the key is an own property, for every name a hostile client may send. */
function ownership(object: object): Record<string, boolean> {
  // fromEntries defines each key, so `__proto__` is reported like the others.
  return Object.fromEntries(['__proto__', 'constructor', 'toString', 'hasOwnProperty'].map((key) => [key, Object.hasOwn(object, key)]));
}

/** A form field in JSON: text as is, a file as `<file>` (Bun tags its File objects as Blob). */
function field(value: unknown): string {
  if (typeof value === 'string') return value;
  return value instanceof Blob ? '<file>' : `<${Object.prototype.toString.call(value)}>`;
}

function prototypeName(object: object): string {
  const proto: unknown = Object.getPrototypeOf(object);
  if (proto === null) return 'null';
  if (proto === Object.prototype) return 'Object.prototype';
  return `other: ${Object.prototype.toString.call(proto)}`;
}

export function makeApp(options: ProbeOptions = {}): App {
  const app = new App({
    ...(options.trustProxy ? { trustProxy: trustProxy(options.trustProxy) } : {}),
    ...(options.redirect ? { trailingSlash: redirectTrailingSlash } : {}),
  });

  let last: { path: string; status: number; clientAddress: string | null } | null = null;
  if (options.observe) {
    app.on('request:complete', (e) => {
      if (e.metadata.path !== '/last') last = { path: e.metadata.path, status: e.metadata.status, clientAddress: e.metadata.clientAddress ?? null };
    });
    app.get('/last', (c) => c.json(last));
  }

  app.get('/', (c) => c.json({ probe: true }));
  app.get('/text', (c) => c.text('plain text'));

  // 1. Prefix middleware against param and wildcard routes, at the root and in a mounted sub-app.
  guarded(app);
  const sub = new App();
  guarded(sub);
  app.route('/sub', sub);

  // 2. Routes a forged Host header tried to reach.
  app.get('/inner/panel', (c) => c.text('inner panel'));
  app.get('/public/page', (c) => c.text('public page'));
  app.get('/where', (c) => c.text('/where'));
  app.get('/x/where', (c) => c.text('/x/where'));

  // 3. Errors that escape the app.
  app.get('/nothing', () => undefined as unknown as Response);
  app.get('/echo-header', (c) => {
    c.header('x-echo', c.req.query('v') ?? '');
    return c.text('echoed');
  });
  // A sub-app with its own onError, to see that it runs when the response cannot be sent.
  const errs = new App();
  errs.onError(() => new Response('{"onError":true}', { status: 500, headers: { 'content-type': 'application/json' } }));
  errs.get('/raw-header', (c) => new Response('raw', { headers: { 'x-echo': c.req.query('v') ?? '' } }));
  app.route('/err', errs);

  // 4. Validation checks the content type.
  const person = z.object({ name: z.string() });
  app.post('/v/json', validate('json', person), (c) => c.json(c.valid('json')));
  app.post('/v/form', validate('form', person), (c) => c.json(c.valid('form')));

  // 6. The client address.
  app.get('/ip', (c) => c.json({ ip: c.req.ip ?? null }));

  // 7. Keys with prototype names, cookies.
  app.post('/form-keys', async (c) => {
    const form = await c.req.form();
    return c.json({
      keys: Object.keys(form),
      own: ownership(form),
      prototype: prototypeName(form),
      values: Object.fromEntries(Object.entries(form).map(([k, v]) => [k, Array.isArray(v) ? v.map(field) : field(v)])),
    });
  });
  app.get('/query-keys', (c) => {
    const query = c.req.query();
    return c.json({
      keys: Object.keys(query),
      own: ownership(query),
      values: Object.fromEntries(Object.entries(query)),
      one: { constructor: describe(c.req.query('constructor')), hasOwnProperty: describe(c.req.query('hasOwnProperty')) },
    });
  });
  app.get('/cookie', (c) => {
    setCookie(c, 'probe', '1', { path: c.req.query('path'), domain: c.req.query('domain') });
    return c.text('cookie set');
  });
  app.get('/redirect-me', (c) => c.text('redirected'));
  if (options.redirect) app.get('/:page', (c) => c.text(`page ${c.req.param('page')}`));

  // 8. The router.
  const versions = '/v1/:version?/:platform?';
  // Today's router refuses this pattern when the route table is built, which would break every route:
  // leave it out then, so the other probes still run (and /v1 answers 404).
  if (registers(versions)) app.get(versions, (c) => c.json({ version: c.req.param('version') ?? null, platform: c.req.param('platform') ?? null }));
  app.get('/files2/:name{.*}', (c) => c.json({ name: c.req.param('name') ?? null }));
  app.get('/api/:kind/:constructor?', (c) =>
    c.json({ kind: c.req.param('kind') ?? null, constructor: describe(c.req.param('constructor')), keys: Object.keys(c.req.param()) }),
  );
  app.method('purge', '/m', (c) => c.text('purged'));

  // What c.json() returns is a real Response.
  app.get('/real', async (c) => {
    const r = c.json({ a: 1 });
    let text: string;
    try {
      text = await r.clone().text();
    } catch (error) {
      text = `clone().text() threw ${(error as Error).name}`;
    }
    return c.json({ instance: r instanceof Response, text });
  });

  return app;
}

function registers(pattern: string): boolean {
  try {
    new Router<number>().add('GET', pattern, 0);
    return true;
  } catch {
    return false;
  }
}
