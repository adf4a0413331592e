import { createServer } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { serve } from '../../../adapters/node/index.ts';
import { setCookie } from '../../../src/http/cookie.ts';
import { App } from '../../../src/index.ts';
import { rawRequest, timeUntilClosed } from '../raw-http.ts';

async function listening(app: App, options: Parameters<typeof serve>[1] = {}) {
  const handle = serve(app, { port: 0, hostname: '127.0.0.1', handleSignals: false, onListen: () => {}, ...options });
  await handle.ready;
  return handle;
}

describe('node adapter', () => {
  const aborted: string[] = [];
  const completed: { status: number; clientAddress: string | undefined }[] = [];
  const errors: unknown[] = [];
  let rawBuilt = 0;
  const app = new App()
    .get('/', (c) => c.json({ ok: true }))
    .get('/wait', async (c) => {
      const signal = c.req.signal;
      await new Promise<void>((resolve) => signal.addEventListener('abort', () => resolve()));
      aborted.push('wait');
      return c.text('late');
    })
    .get('/raw', (c) => {
      rawBuilt++;
      const r = c.req.raw;
      return c.json({ isRequest: r instanceof Request, url: new URL(r.url).pathname, ua: r.headers.get('x-test') });
    })
    .post('/upload', async (c) => c.json({ bytes: (await c.req.arrayBuffer()).byteLength }))
    .post('/json', async (c) => c.json({ value: await c.req.json(), text: await c.req.text() }))
    .post('/text', async (c) => c.json({ text: await c.req.text(), bytes: (await c.req.bytes()).byteLength }))
    .get('/own', () => new Response('own body', { status: 201, headers: { 'x-own': '1', 'set-cookie': 'a=1' } }))
    .get('/cookies', (c) => {
      setCookie(c, 'a', '1');
      setCookie(c, 'b', '2');
      return c.text('two');
    })
    .get('/real', async (c) => {
      const res = c.json({ n: 1 });
      return c.json({ isResponse: res instanceof Response, ok: res.ok, type: res.headers.get('content-type'), clone: await res.clone().text() });
    })
    .get(
      '/after',
      async (c, next) => {
        await next();
        c.res.headers.set('x-after', 'yes');
      },
      (c) => c.text('with a header added after'),
    )
    .get('/crlf', (c) => c.text('echoed', 200, { 'x-echo': c.req.query('v') ?? '' }))
    .get('/control', () => new Response('x', { headers: { 'x-bad': 'a\u0001b' } }))
    .get('/stream', () => new Response(new Blob(['streamed body']).stream(), { headers: { 'content-type': 'text/plain' } }))
    .get('/empty', (c) => c.body(null, 204))
    .get('/moved', (c) => c.redirect('/'))
    .get('/x/where', (c) => c.text('x/where'));
  app.onError((error, c) => {
    errors.push(error);
    return c.json({ handled: true }, 500);
  });
  app.on('request:complete', (e) => void completed.push({ status: e.metadata.status, clientAddress: e.metadata.clientAddress }));
  let handle: Awaited<ReturnType<typeof listening>>;
  let base = '';
  beforeAll(async () => {
    handle = await listening(app);
    base = `http://127.0.0.1:${handle.port}`;
  });
  afterAll(() => handle.close());

  it('knows its URL once ready', () => {
    expect(handle.url).toBe(`http://127.0.0.1:${handle.port}/`);
  });

  it('writes a helper response with a content-length', async () => {
    const res = await fetch(`${base}/`);
    expect(res.headers.get('content-length')).toBe('11');
    expect(res.headers.get('content-type')).toBe('application/json');
    expect(await res.json()).toEqual({ ok: true });
  });

  it('what c.json returns is a real Response', async () => {
    const res = await fetch(`${base}/real`);
    expect(await res.json()).toEqual({ isResponse: true, ok: true, type: 'application/json', clone: '{"n":1}' });
  });

  it('headers a middleware sets on c.res after next() are written', async () => {
    const res = await fetch(`${base}/after`);
    expect(res.headers.get('x-after')).toBe('yes');
    expect(await res.text()).toBe('with a header added after');
  });

  it('builds a WHATWG Request only when the handler asks for one', async () => {
    const res = await fetch(`${base}/raw`, { headers: { 'x-test': 'yes' } });
    expect(await res.json()).toEqual({ isRequest: true, url: '/raw', ua: 'yes' });
    expect(rawBuilt).toBe(1);
  });

  it('a client disconnect aborts request.signal', async () => {
    const controller = new AbortController();
    const pending = fetch(`${base}/wait`, { signal: controller.signal }).catch(() => 'aborted');
    await new Promise((r) => setTimeout(r, 100));
    controller.abort();
    expect(await pending).toBe('aborted');
    for (let i = 0; i < 50 && aborted.length === 0; i++) await new Promise((r) => setTimeout(r, 20));
    expect(aborted).toEqual(['wait']);
  });

  it('streams a request body in', async () => {
    const body = new Uint8Array(300_000).fill(1);
    const res = await fetch(`${base}/upload`, { method: 'POST', body });
    expect(await res.json()).toEqual({ bytes: 300_000 });
  });

  it('reads a text body as TextDecoder decodes it: BOM dropped, bad bytes replaced, several chunks joined', async () => {
    const sent = [new Uint8Array([0xef, 0xbb, 0xbf, 0x68, 0xc3]), new Uint8Array([0xa9, 0xff, 0xe2, 0x82]), new Uint8Array(70_000).fill(0x61)];
    const all = new Uint8Array(await new Blob(sent).arrayBuffer());
    const res = await fetch(`${base}/text`, { method: 'POST', body: new Blob(sent).stream(), duplex: 'half' } as RequestInit);
    const got = (await res.json()) as { text: string; bytes: number };
    expect(got.text).toBe(new TextDecoder().decode(all));
    expect(got.text.startsWith('hé\ufffd\ufffd')).toBe(true);
    // bytes() after text() is the text encoded again, as on every runtime
    expect(got.bytes).toBe(new TextEncoder().encode(got.text).byteLength);
  });

  it('parses a JSON body (BOM dropped); text() after json() is the value serialised; invalid JSON is a 400 BodyError', async () => {
    const sent = new Uint8Array([0xef, 0xbb, 0xbf, ...new TextEncoder().encode('{ "a": [1, "é"] }')]);
    const res = await fetch(`${base}/json`, { method: 'POST', body: sent });
    expect(await res.json()).toEqual({ value: { a: [1, 'é'] }, text: '{"a":[1,"é"]}' });
    const before = errors.length;
    const bad = await fetch(`${base}/json`, { method: 'POST', body: '{"a":' });
    expect(bad.status).toBe(500); // this app's onError answers 500 for everything
    expect(errors.slice(before)).toMatchObject([{ status: 400, message: 'Invalid JSON body' }]);
  });

  it('writes a handler-built Response with its status, headers and body', async () => {
    const res = await fetch(`${base}/own`);
    expect(res.status).toBe(201);
    expect(res.headers.get('x-own')).toBe('1');
    expect(res.headers.getSetCookie()).toEqual(['a=1']);
    expect(await res.text()).toBe('own body');
  });

  it('keeps several Set-Cookie headers apart', async () => {
    const res = await fetch(`${base}/cookies`);
    expect(res.headers.getSetCookie()).toEqual(['a=1; Path=/', 'b=2; Path=/']);
  });

  it('a CR/LF from the query fails inside the handler: onError runs, and events report 500', async () => {
    errors.length = 0;
    completed.length = 0;
    const res = await fetch(`${base}/crlf?v=a%0D%0ASet-Cookie:%20x=1`);
    expect(res.status).toBe(500);
    expect(res.headers.get('set-cookie')).toBeNull();
    expect(await res.json()).toEqual({ handled: true });
    expect(errors).toHaveLength(1);
    expect(completed.map((c) => c.status)).toEqual([500]);
  });

  it('a header value node:http cannot send fails inside the app too (no "500 OK")', async () => {
    errors.length = 0;
    completed.length = 0;
    const res = await fetch(`${base}/control`);
    expect(res.status).toBe(500);
    expect(await res.json()).toEqual({ handled: true });
    expect(errors).toHaveLength(1);
    expect(completed.map((c) => c.status)).toEqual([500]);
  });

  it('request events and c.req.ip name the socket peer', async () => {
    completed.length = 0;
    await (await fetch(`${base}/`, { headers: { 'x-forwarded-for': '203.0.113.1' } })).text();
    expect(completed).toEqual([{ status: 200, clientAddress: '127.0.0.1' }]);
  });

  it('HEAD keeps the GET Content-Length and sends no body', async () => {
    const head = await rawRequest(handle.port, 'HEAD / HTTP/1.1\r\nHost: h\r\nConnection: close\r\n\r\n', '', 2000);
    expect(head.status).toBe(200);
    expect(head.headers['content-length']).toBe('11');
    expect(head.body).toBe('');
  });

  it('HEAD on a streamed response sends its headers and no body', async () => {
    const head = await rawRequest(handle.port, 'HEAD /stream HTTP/1.1\r\nHost: h\r\nConnection: close\r\n\r\n', '', 2000);
    expect(head.status).toBe(200);
    expect(head.headers['content-type']).toBe('text/plain');
    expect(head.body).toBe('');
    expect(await (await fetch(`${base}/stream`)).text()).toBe('streamed body');
  });

  it('a 204 has no Content-Length; a redirect has Content-Length 0', async () => {
    const empty = await fetch(`${base}/empty`);
    expect(empty.status).toBe(204);
    expect(empty.headers.get('content-length')).toBeNull();
    const moved = await fetch(`${base}/moved`, { redirect: 'manual' });
    expect(moved.status).toBe(302);
    expect(moved.headers.get('content-length')).toBe('0');
  });

  it('an absolute-form target is served by its path; one with a bad authority answers 400', async () => {
    const good = await rawRequest(handle.port, 'GET http://example.com/x/where HTTP/1.1\r\nHost: h\r\nConnection: close\r\n\r\n');
    expect(good.body).toBe('x/where');
    const bad = await rawRequest(handle.port, 'GET http://a@b/x/where HTTP/1.1\r\nHost: h\r\nConnection: close\r\n\r\n');
    expect(bad.status).toBe(400);
    expect(bad.headers['content-type']).toBe('application/problem+json');
    const star = await rawRequest(handle.port, 'GET * HTTP/1.1\r\nHost: h\r\nConnection: close\r\n\r\n');
    expect(star.status).toBe(400);
  });

  it('of two Host lines, the first is checked and names the URL (the one node:http keeps), in any case', async () => {
    const bad = await rawRequest(handle.port, 'GET /raw HTTP/1.1\r\nhOsT: a/x\r\nHost: good\r\nConnection: close\r\n\r\n');
    expect(bad.status).toBe(400);
    const good = await rawRequest(handle.port, 'GET /x/where HTTP/1.1\r\nHOST: good\r\nHost: a/x\r\nConnection: close\r\n\r\n');
    expect(good.status).toBe(200);
    expect(good.body).toBe('x/where');
  });

  it('an HTTP/1.0 request without Host is served', async () => {
    const res = await rawRequest(handle.port, 'GET /x/where HTTP/1.0\r\n\r\n');
    expect(res.status).toBe(200);
    expect(res.body).toBe('x/where');
  });
});

describe('node adapter timeouts', () => {
  const app = new App().get('/', (c) => c.text('ok')).post('/', async (c) => c.text(await c.req.text()));

  it('defaults: headers 60 s, whole request 300 s', async () => {
    const handle = await listening(app);
    expect(handle.server.headersTimeout).toBe(60_000);
    expect(handle.server.requestTimeout).toBe(300_000);
    await handle.close();
  });

  it('hangs up on a client whose headers never complete, even one that trickles them', async () => {
    const handle = await listening(app, { headersTimeoutMs: 300 });
    const [silent, trickle] = await Promise.all([
      timeUntilClosed(handle.port, '', undefined, 5000),
      timeUntilClosed(handle.port, 'GET / HTTP/1.1\r\nHost: h\r\n', { every: 100, text: 'X-A: b\r\n' }, 5000),
    ]);
    expect(silent).toBeGreaterThanOrEqual(250);
    expect(silent).toBeLessThan(2000);
    expect(trickle).toBeLessThan(2000);
    await handle.close();
  });

  it('hangs up on a request whose body never completes (requestTimeoutMs)', async () => {
    const handle = await listening(app, { requestTimeoutMs: 400 });
    const head = 'POST / HTTP/1.1\r\nHost: h\r\nContent-Length: 100\r\n\r\n';
    const closed = await timeUntilClosed(handle.port, head, { every: 100, text: 'a' }, 5000);
    expect(closed).toBeLessThan(2500);
    await handle.close();
  });

  it('closes a keep-alive connection idle longer than idleTimeoutMs', async () => {
    const handle = await listening(app, { idleTimeoutMs: 200 });
    const closed = await timeUntilClosed(handle.port, 'GET / HTTP/1.1\r\nHost: h\r\n\r\n', undefined, 5000);
    expect(closed).toBeGreaterThanOrEqual(150);
    expect(closed).toBeLessThan(2000);
    await handle.close();
  });
});

describe('node adapter lifecycle', () => {
  it('announces itself with server:listening and its URL', async () => {
    const app = new App().get('/', (c) => c.text('ok'));
    const seen: string[] = [];
    app.on('server:listening', (e) => void seen.push(e.metadata.url));
    const handle = await listening(app);
    expect(seen).toEqual([handle.url]);
    await handle.close();
  });

  it('close() lets an in-flight request finish, emits server:shutdown, then refuses connections', async () => {
    const app = new App().get('/slow', async (c) => {
      await new Promise((r) => setTimeout(r, 300));
      return c.text('done');
    });
    const kinds: string[] = [];
    app.on('server:shutdown', () => void kinds.push('shutdown'));
    const handle = await listening(app);
    const pending = fetch(`${handle.url}slow`).then((r) => r.text());
    await new Promise((r) => setTimeout(r, 50));
    await handle.close();
    expect(await pending).toBe('done');
    expect(kinds).toEqual(['shutdown']);
    await handle.finished;
    await expect(fetch(`${handle.url}slow`)).rejects.toThrow();
  });

  it('close() cuts a request still running after shutdownTimeoutMs', async () => {
    const app = new App().get('/forever', () => new Promise<Response>(() => {}));
    const handle = await listening(app, { shutdownTimeoutMs: 200 });
    const pending = fetch(`${handle.url}forever`).then(
      () => 'answered',
      () => 'cut',
    );
    await new Promise((r) => setTimeout(r, 50));
    const started = Date.now();
    await handle.close();
    expect(Date.now() - started).toBeLessThan(1500);
    expect(await pending).toBe('cut');
  });

  it('an aborted signal stops the server', async () => {
    const controller = new AbortController();
    const handle = await listening(new App(), { signal: controller.signal });
    controller.abort();
    await handle.finished;
  });

  it('a port in use rejects ready and finished', async () => {
    const blocker = createServer().listen(0, '127.0.0.1');
    await new Promise((r) => blocker.once('listening', r));
    const port = (blocker.address() as { port: number }).port;
    const handle = serve(new App(), { port, hostname: '127.0.0.1', handleSignals: false, onListen: () => {} });
    await expect(handle.ready).rejects.toThrow(/EADDRINUSE/);
    await expect(handle.finished).rejects.toThrow(/EADDRINUSE/);
    blocker.close();
  });
});
