// The Deno and Bun bindings' header check: a helper's response, built from headers the context
// checked, is written as is until something touches its headers; anything else is checked.
// Nothing of this reaches the core: app.fetch and app.request keep plain Responses.
import { describe, expect, it } from 'vitest';
import { BUILT, CheckedResponse, checkUnlessBuilt, respondChecked, respondHeadersAfter } from '../../../adapters/shared/checked-response.ts';
import type { ResponseFactory } from '../../../src/core/context.ts';
import { App } from '../../../src/index.ts';
import { cors } from '../../../src/middleware/cors/index.ts';

const BAD = 'a\u0001b';

/** An app bound as Deno's (respondChecked) or Bun's (respondHeadersAfter) adapter binds it; `checked` counts the responses that were checked. */
function boundWith(app: App, respond: ResponseFactory) {
  const seen = { checked: 0 };
  const handle = app.bind({
    respond,
    finish: (res) => {
      if (!(res instanceof CheckedResponse) || !res[BUILT]) seen.checked++;
      checkUnlessBuilt(res);
      return res;
    },
  });
  return { seen, send: (path: string, init?: RequestInit) => handle(new Request(`http://localhost${path}`, init), {}, undefined) };
}

it("Deno's and Bun's factories build the same responses: status, type, repeated headers, cookies", async () => {
  const app = new App();
  app.get('/text', (c) => c.text('hi'));
  app.get('/json', (c) => c.json({ ok: 1 }, 201));
  app.get('/many', (c) => {
    c.header('x-a', '1');
    c.header('x-a', '2', { append: true });
    c.header('set-cookie', 'a=1');
    c.header('set-cookie', 'b=2', { append: true });
    return c.html('<p>x</p>', 202, { 'x-b': '3' });
  });
  app.get('/empty', (c) => c.body(null, 204));
  for (const path of ['/text', '/json', '/many', '/empty']) {
    const [deno, bun] = await Promise.all([boundWith(app, respondChecked).send(path), boundWith(app, respondHeadersAfter).send(path)]);
    expect(deno).toBeInstanceOf(CheckedResponse);
    expect(bun).toBeInstanceOf(CheckedResponse);
    expect(bun.status).toBe(deno.status);
    expect([...bun.headers]).toEqual([...deno.headers]);
    expect(await bun.text()).toBe(await deno.text());
  }
});

describe.each([
  ['Deno', respondChecked],
  ['Bun', respondHeadersAfter],
] as const)('checked responses (the %s binding)', (_runtime, respond) => {
  const bound = (app: App) => boundWith(app, respond);

  it('writes a helper response without a second check, and checks one the handler built', async () => {
    const app = new App();
    app.get('/helper', (c) => c.json({ ok: true }, 201, { 'x-a': '1' }));
    app.get('/own', () => new Response('ok', { headers: { 'x-a': '1' } }));
    const { seen, send } = bound(app);
    const res = await send('/helper');
    expect(res.status).toBe(201);
    expect(await res.json()).toEqual({ ok: true });
    expect(seen.checked).toBe(0);
    expect((await send('/own')).status).toBe(200);
    expect(seen.checked).toBe(1);
  });

  it('checks a helper response again once its headers were touched, and refuses what was added', async () => {
    const app = new App();
    app.use(async (c, next) => {
      await next();
      c.res.headers.set('x-added', BAD);
    });
    app.get('/', (c) => c.text('ok'));
    const { seen, send } = bound(app);
    const res = await send('/');
    expect(seen.checked).toBeGreaterThanOrEqual(1);
    expect(res.status).toBe(500);
    expect(res.headers.get('x-added')).toBeNull();
  });

  it('catches a handler that changes its own helper response', async () => {
    const app = new App();
    app.get('/', (c) => {
      const res = c.text('ok');
      res.headers.set('x-echo', BAD);
      return res;
    });
    expect((await bound(app).send('/')).status).toBe(500);
  });

  it('answers a cors preflight through the helper, unchecked until touched', async () => {
    const app = new App();
    app.use('/api', cors({ origin: 'https://app.example', headers: ['content-type'] }));
    const { seen, send } = bound(app);
    const res = await send('/api/x', {
      method: 'OPTIONS',
      headers: { origin: 'https://app.example', 'access-control-request-method': 'POST', 'access-control-request-headers': 'content-type' },
    });
    expect(res.status).toBe(204);
    expect(res.headers.get('access-control-allow-origin')).toBe('https://app.example');
    expect(seen.checked).toBe(0);
  });

  it('leaves app.fetch and app.request as they were: plain Responses', async () => {
    const app = new App();
    app.get('/', (c) => c.json({ ok: true }));
    const { send } = bound(app);
    expect(await send('/')).toBeInstanceOf(CheckedResponse);
    const direct = await app.request('/');
    expect(direct).not.toBeInstanceOf(CheckedResponse);
    expect(Object.getPrototypeOf(direct)).toBe(Response.prototype);
    expect(Object.getPrototypeOf(await app.fetch(new Request('http://localhost/')))).toBe(Response.prototype);
  });
});
