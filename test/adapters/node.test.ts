import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { serve } from '../../adapters/node.ts';
import { App } from '../../src/index.ts';

describe('node adapter', () => {
  const aborted: string[] = [];
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
    .get('/own', () => new Response('own body', { status: 201, headers: { 'x-own': '1', 'set-cookie': 'a=1' } }))
    .get('/cookies', (c) => {
      c.setCookie('a', '1');
      c.setCookie('b', '2');
      return c.text('two');
    });
  let handle: ReturnType<typeof serve>;
  let base = '';
  beforeAll(async () => {
    await new Promise<void>((resolve) => {
      handle = serve(app, { port: 0, hostname: '127.0.0.1', handleSignals: false, onListen: () => resolve() });
    });
    base = `http://127.0.0.1:${handle.port}`;
  });
  afterAll(() => handle.close());

  it('writes a helper response with a content-length', async () => {
    const res = await fetch(base + '/');
    expect(res.headers.get('content-length')).toBe('11');
    expect(await res.json()).toEqual({ ok: true });
  });

  it('builds a WHATWG Request only when the handler asks for one', async () => {
    const res = await fetch(base + '/raw', { headers: { 'x-test': 'yes' } });
    expect(await res.json()).toEqual({ isRequest: true, url: '/raw', ua: 'yes' });
    expect(rawBuilt).toBe(1);
  });

  it('a client disconnect aborts request.signal', async () => {
    const controller = new AbortController();
    const pending = fetch(base + '/wait', { signal: controller.signal }).catch(() => 'aborted');
    await new Promise((r) => setTimeout(r, 100));
    controller.abort();
    expect(await pending).toBe('aborted');
    for (let i = 0; i < 50 && aborted.length === 0; i++) await new Promise((r) => setTimeout(r, 20));
    expect(aborted).toEqual(['wait']);
  });

  it('streams a request body in', async () => {
    const body = new Uint8Array(300_000).fill(1);
    const res = await fetch(base + '/upload', { method: 'POST', body });
    expect(await res.json()).toEqual({ bytes: 300_000 });
  });

  it('writes a handler-built Response with its status, headers and body', async () => {
    const res = await fetch(base + '/own');
    expect(res.status).toBe(201);
    expect(res.headers.get('x-own')).toBe('1');
    expect(res.headers.getSetCookie()).toEqual(['a=1']);
    expect(await res.text()).toBe('own body');
  });

  it('keeps several Set-Cookie headers apart', async () => {
    const res = await fetch(base + '/cookies');
    expect(res.headers.getSetCookie()).toEqual(['a=1; Path=/', 'b=2; Path=/']);
  });

  it('a Host header with path characters does not move the path', async () => {
    const { request } = await import('node:http');
    const status = await new Promise<number>((resolve, reject) => {
      const req = request({ host: '127.0.0.1', port: handle.port, path: '/', headers: { host: 'evil.com/x?' } }, (res) => {
        res.resume();
        resolve(res.statusCode ?? 0);
      });
      req.on('error', reject);
      req.end();
    });
    expect(status).toBe(200);
  });
});
