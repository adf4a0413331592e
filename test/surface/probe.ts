// Calls every public member of App, Context and RoveRequest once, on bare apps, through
// app.request. It imports the core entry and nothing else: no other rove module, no
// side-effect import, so a member that only works once some module patched it in fails here.
// Run by members.test.ts on Node, by run-probe.ts on Deno and Bun, and by
// test/workerd/surface.test.ts inside workerd.
import { App, type Context, EventBus, HttpError, RoveRequest, type StandardSchemaV1, validate } from '../../src/index.ts';

type AnyContext = Context<any, any, any>;

/** The same value, compared as JSON; the error says what differed. */
function same(actual: unknown, expected: unknown, what = 'value'): void {
  const a = JSON.stringify(actual);
  const e = JSON.stringify(expected);
  if (a !== e) throw new Error(`${what}: expected ${e}, got ${a}`);
}

function check(ok: boolean, what: string): void {
  if (!ok) throw new Error(what);
}

/** What `fn` threw or rejected with (fails when it did neither). */
async function thrown(fn: () => unknown): Promise<unknown> {
  try {
    await fn();
  } catch (error) {
    return error;
  }
  throw new Error('expected a throw, got none');
}

const URL_ = '/probe/7?x=1&x=2';

/**
 * Answers one request on a bare app whose only route runs `fn` as its handler. What `fn`
 * throws is thrown here; a value that is not a Response comes back as JSON (built without
 * the context, so each probe leans on the member it names only).
 */
async function answer(fn: (c: AnyContext) => unknown, init?: RequestInit, env?: object): Promise<Response> {
  let failed: { error: unknown } | undefined;
  const app = new App().all('/probe/:id', async (c) => {
    try {
      const out = await fn(c);
      return out instanceof Response ? out : Response.json(out ?? null);
    } catch (error) {
      failed = { error };
      return new Response(null, { status: 500 });
    }
  });
  const res = await app.request(URL_, init, env);
  if (failed) throw failed.error;
  return res;
}

/** The value `fn` returned in the handler, through JSON. */
async function value(fn: (c: AnyContext) => unknown, init?: RequestInit, env?: object): Promise<unknown> {
  return (await answer(fn, init, env)).json();
}

const post = (body: BodyInit, type?: string): RequestInit => ({ method: 'POST', body, headers: type ? { 'content-type': type } : {} });

/** A route added with `add` answers a request with `method`. */
async function routes(add: (app: App, path: string, h: (c: AnyContext) => Response) => unknown, method: string): Promise<void> {
  const app = new App();
  add(app, '/m', (c) => c.text('routed', 200, { 'x-route': 'yes' }));
  const res = await app.request('/m', { method });
  same(res.status, 200, `${method} status`);
  same(res.headers.get('x-route'), 'yes', `${method} x-route`);
}

/** A schema that takes any value as it is. */
const anything: StandardSchemaV1 = { '~standard': { version: 1, vendor: 'probe', validate: (value) => ({ value }) } };

const APP = {
  'App.settings': async () => same(typeof new App().settings.bodyLimit, 'number', 'settings.bodyLimit'),
  'App.bind': async () => {
    const handle = new App().get('/', (c) => c.text('bound')).bind({});
    same(await (await handle(new Request('http://localhost/'), {}, undefined)).text(), 'bound');
  },
  'App.get': () => routes((app, p, h) => app.get(p, h), 'GET'),
  'App.post': () => routes((app, p, h) => app.post(p, h), 'POST'),
  'App.put': () => routes((app, p, h) => app.put(p, h), 'PUT'),
  'App.patch': () => routes((app, p, h) => app.patch(p, h), 'PATCH'),
  'App.delete': () => routes((app, p, h) => app.delete(p, h), 'DELETE'),
  'App.head': () => routes((app, p, h) => app.head(p, h), 'HEAD'),
  'App.options': () => routes((app, p, h) => app.options(p, h), 'OPTIONS'),
  'App.all': () => routes((app, p, h) => app.all(p, h), 'PATCH'),
  'App.method': () => routes((app, p, h) => app.method('PURGE', p, h), 'PURGE'),
  'App.use': async () => {
    const app = new App()
      .use(async (c, next) => {
        c.header('x-mw', 'ran');
        await next();
      })
      .get('/', (c) => c.text('x'));
    same((await app.request('/')).headers.get('x-mw'), 'ran');
  },
  'App.route': async () => {
    const app = new App().route(
      '/sub',
      new App().get('/x', (c) => c.text('mounted')),
    );
    same(await (await app.request('/sub/x')).text(), 'mounted');
  },
  'App.unmount': async () => {
    const first = new App().get('/x', (c) => c.text('first'));
    const app = new App().route('/sub', first);
    same(await (await app.request('/sub/x')).text(), 'first');
    app.unmount(
      first,
      new App().get('/x', (c) => c.text('second')),
    );
    same(await (await app.request('/sub/x')).text(), 'second');
  },
  'App.instrument': async () => {
    const seen: (string | null)[] = [];
    const app = new App().get('/users/:id', (c) => c.text('x'));
    app.instrument((layers, route) => {
      seen.push(route);
      const tag: (typeof layers)[number] = (c, next) => {
        c.header('x-route', String(route));
        return next();
      };
      return [tag, ...layers];
    });
    same((await app.request('/users/1')).headers.get('x-route'), '/users/:id');
    same((await app.request('/nowhere')).status, 404);
    same(seen, ['/users/:id', null], 'routes seen');
  },
  'App.events': async () => check(new App().events instanceof EventBus, 'app.events is not an EventBus'),
  'App.on': async () => {
    const seen: number[] = [];
    const app = new App().get('/', (c) => c.text('x'));
    const off = app.on('request:complete', (e) => void seen.push(e.metadata.status));
    await app.request('/');
    off();
    await app.request('/');
    same(seen, [200], 'statuses heard');
  },
  'App.shutdown': async () => same(await new App().shutdown(), undefined),
  'App.onError': async () => {
    const app = new App()
      .onError((error, c) => c.text(`handled ${(error as Error).message}`, 503))
      .get('/', () => {
        throw new Error('oops');
      });
    const res = await app.request('/');
    same([res.status, await res.text()], [503, 'handled oops']);
  },
  'App.notFound': async () => {
    const res = await new App().notFound((c) => c.text('no such page', 404)).request('/nowhere');
    same([res.status, await res.text()], [404, 'no such page']);
  },
  'App.fetch': async () => {
    // Detached, as `export default { fetch: app.fetch }` uses it.
    const { fetch } = new App().get('/', (c) => c.text('fetched'));
    same(await (await fetch(new Request('http://localhost/'))).text(), 'fetched');
  },
  'App.request': async () => same(await (await new App().get('/', (c) => c.text('asked')).request('/')).text(), 'asked'),
  'App.handle': async () => {
    const app = new App().get('/', (c) => c.text('handled'));
    same(await (await app.handle(new Request('http://localhost/'), {}, undefined)).text(), 'handled');
  },
  'App.routeList': async () =>
    same(new App().get('/a', (c) => c.text('a')).post('/b/:id', (c) => c.text('b')).routeList, [
      { method: 'GET', path: '/a' },
      { method: 'POST', path: '/b/:id' },
    ]),
};

const CONTEXT = {
  'Context.env': async () => same(await value((c) => c.env, undefined, { NAME: 'bound' }), { NAME: 'bound' }),
  'Context.path': async () => same(await value((c) => c.path), '/probe/7'),
  'Context.params': async () => same(await value((c) => c.params), { id: '7' }),
  'Context.error': async () => {
    // Middleware after next() sees what the handler threw (a 418: nothing is logged).
    let seen: unknown;
    const app = new App()
      .use(async (c, next) => {
        await next();
        seen = c.error;
      })
      .get('/', () => {
        throw new HttpError(418);
      });
    same((await app.request('/')).status, 418);
    check(seen instanceof HttpError && seen.status === 418, `c.error: ${String(seen)}`);
  },
  'Context.req': async () => same(await value((c) => c.req instanceof RoveRequest), true, 'c.req instanceof RoveRequest'),
  'Context.threads': async () => {
    // Without a pool, run() rejects with 503: the documented answer.
    const error = await value(async (c) => {
      const e = await thrown(() => c.threads.run(1));
      return e instanceof HttpError ? e.status : String(e);
    });
    same(error, 503, 'c.threads.run() without a pool');
  },
  'Context.executionCtx': async () => {
    let ran = false;
    await answer((c) => {
      c.executionCtx.waitUntil(Promise.resolve().then(() => (ran = true)));
      return null;
    });
    await new Promise((r) => setTimeout(r, 0));
    check(ran, 'waitUntil work did not run');
    // A middleware may wrap it for what runs after it.
    const kept: Promise<unknown>[] = [];
    await answer((c) => {
      const outer = c.executionCtx;
      c.executionCtx = {
        waitUntil: (p) => {
          kept.push(p);
          outer.waitUntil(p);
        },
      };
      c.executionCtx.waitUntil(Promise.resolve());
      return null;
    });
    same(kept.length, 1, 'wrapped waitUntil calls');
  },
  'Context.res': async () => {
    // c.res throws before next() by design: read and replace it after.
    let status: number | undefined;
    const app = new App()
      .use(async (c, next) => {
        await next();
        status = c.res.status;
        c.res = new Response('replaced');
      })
      .get('/', (c) => c.text('original', 201));
    same([await (await app.request('/')).text(), status], ['replaced', 201]);
  },
  'Context.set': async () =>
    same(
      await value((c) => {
        c.set('k', 'v');
        return c.get('k');
      }),
      'v',
    ),
  'Context.get': async () => same(await value((c) => c.get('absent') ?? 'none'), 'none'),
  'Context.var': async () =>
    same(
      await value((c) => {
        c.set('k', 'v');
        return c.var;
      }),
      { k: 'v' },
    ),
  'Context.emit': async () => {
    const seen: unknown[] = [];
    const app = new App().get('/', (c) => {
      c.emit('route:error', () => ({ route: '/r', error: null }));
      return c.text('x');
    });
    app.on('route:error', (e) => void seen.push(e.metadata.route));
    await app.request('/');
    same(seen, ['/r'], 'events heard');
  },
  'Context.valid': async () => {
    const app = new App().post('/', validate('json', anything), (c) => c.json(c.valid('json')));
    same(await (await app.request('/', post('{"a":1}', 'application/json'))).json(), { a: 1 });
  },
  'Context.header': async () => {
    const res = await answer((c) => {
      c.header('x-a', '1');
      c.header('x-a', '2', { append: true });
      return c.text('h');
    });
    same(res.headers.get('x-a'), '1, 2', 'x-a');
  },
  'Context.status': async () => {
    const res = await answer((c) => {
      c.status(201);
      return c.text('s');
    });
    same(res.status, 201, 'status');
  },
  'Context.json': async () => {
    const res = await answer((c) => c.json({ a: 1 }, 201));
    same([res.status, res.headers.get('content-type'), await res.json()], [201, 'application/json', { a: 1 }]);
  },
  'Context.text': async () => {
    const res = await answer((c) => c.text('plain'));
    // Named even where the runtime adds it only on the wire (Bun), so a test sees what a client gets.
    const type = res.headers.get('content-type');
    check(type?.toLowerCase() === 'text/plain;charset=utf-8', `content-type ${type}`);
    same(await res.text(), 'plain');
  },
  'Context.html': async () => {
    const res = await answer((c) => c.html('<p>hi</p>'));
    same([res.headers.get('content-type'), await res.text()], ['text/html; charset=utf-8', '<p>hi</p>']);
  },
  'Context.body': async () => {
    const res = await answer((c) => c.body(new Uint8Array([1, 2, 3]), 200, { 'content-type': 'application/octet-stream' }));
    same([...new Uint8Array(await res.arrayBuffer())], [1, 2, 3]);
  },
  'Context.stream': async () => {
    const res = await answer((c) =>
      c.stream(async (out) => {
        await out.write('a');
        await out.write(new TextEncoder().encode('b'));
      }),
    );
    same(await res.text(), 'ab');
  },
  'Context.render': async () => {
    // Without views, c.render throws the documented hint.
    const error = await thrown(() => answer((c) => c.render('home', {})));
    check(error instanceof Error && error.message.startsWith('c.render needs views'), `c.render without views: ${String(error)}`);
  },
  'Context.redirect': async () => {
    const res = await answer((c) => c.redirect('/there', 303));
    same([res.status, res.headers.get('location')], [303, '/there']);
  },
  'Context.notFound': async () => {
    // It throws a 404, which the app answers through its not-found handler.
    const app = new App().notFound((c) => c.text('not here', 404)).get('/', (c) => c.notFound());
    const res = await app.request('/');
    same([res.status, await res.text()], [404, 'not here']);
  },
};

const REQUEST = {
  'RoveRequest.path': async () => same(await value((c) => c.req.path), '/probe/7'),
  // The address where the runtime gives one; app.request has none.
  'RoveRequest.ip': async () => same(await value((c) => typeof c.req.ip), 'undefined'),
  // No proxy is trusted on a bare app: the request URL's scheme.
  'RoveRequest.protocol': async () => same(await value((c) => c.req.protocol, { headers: { 'x-forwarded-proto': 'https' } }), 'http'),
  'RoveRequest.method': async () => same(await value((c) => c.req.method, post('x')), 'POST'),
  'RoveRequest.url': async () => same(await value((c) => c.req.url), `http://localhost${URL_}`),
  'RoveRequest.headers': async () => same(await value((c) => c.req.headers instanceof Headers && c.req.headers.get('x-a'), { headers: { 'x-a': '1' } }), '1'),
  'RoveRequest.signal': async () => same(await value((c) => c.req.signal instanceof AbortSignal), true, 'c.req.signal instanceof AbortSignal'),
  'RoveRequest.raw': async () => same(await value((c) => c.req.raw instanceof Request && c.req.raw.url), `http://localhost${URL_}`),
  'RoveRequest.param': async () => same(await value((c) => [c.req.param('id'), c.req.param()]), ['7', { id: '7' }]),
  'RoveRequest.query': async () => same(await value((c) => [c.req.query('x'), c.req.query()]), ['1', { x: '1' }]),
  'RoveRequest.queries': async () => same(await value((c) => c.req.queries('x')), ['1', '2']),
  'RoveRequest.header': async () => same(await value((c) => c.req.header('X-A') ?? null, { headers: { 'x-a': '1' } }), '1'),
  'RoveRequest.bytes': async () => same(await value(async (c) => [...(await c.req.bytes())], post('abc')), [97, 98, 99]),
  'RoveRequest.arrayBuffer': async () => same(await value(async (c) => (await c.req.arrayBuffer()).byteLength, post('abc')), 3),
  'RoveRequest.text': async () => same(await value((c) => c.req.text(), post('abc')), 'abc'),
  'RoveRequest.json': async () => same(await value((c) => c.req.json(), post('{"a":[1]}', 'application/json')), { a: [1] }),
  'RoveRequest.formData': async () => {
    // A multipart body, with a file.
    const form = new FormData();
    form.append('a', '1');
    form.append('f', new Blob(['file body'], { type: 'text/plain' }), 'f.txt');
    const got = await value(
      async (c) => {
        const data = await c.req.formData();
        const file = data.get('f') as File;
        return [data.get('a'), file.name, await file.text()];
      },
      { method: 'POST', body: form },
    );
    same(got, ['1', 'f.txt', 'file body']);
  },
  'RoveRequest.form': async () => same(await value((c) => c.req.form(), post('a=1&b=2&b=3', 'application/x-www-form-urlencoded')), { a: '1', b: ['2', '3'] }),
};

/** One probe per public member, keyed `Class.member`. */
export const PROBES: Record<string, () => Promise<void>> = { ...APP, ...CONTEXT, ...REQUEST };

/** Runs every probe: 'ok', or what went wrong. */
export async function probe(): Promise<Record<string, string>> {
  const out: Record<string, string> = {};
  for (const [name, run] of Object.entries(PROBES)) {
    try {
      await run();
      out[name] = 'ok';
    } catch (error) {
      out[name] = error instanceof Error ? `${error.name}: ${error.message}` : String(error);
    }
  }
  return out;
}
