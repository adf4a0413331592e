/// <reference types="@cloudflare/vitest-pool-workers" />
// Runs inside workerd (vitest.workers.config.ts): the hello example with the bindings of
// test/workerd/wrangler.toml, reached two ways: through the worker entry (SELF, as a deployed
// worker is), and through app.request with the test's real bindings.
import { env, SELF } from 'cloudflare:test';
import { describe, expect, it } from 'vitest';
import { app } from '../../examples/hello/app.ts';
import { App } from '../../src/index.ts';

/** The slice of Workers KV this test uses (the types come with the runtime, not with this repo). */
interface KV {
  get(key: string): Promise<string | null>;
  put(key: string, value: string): Promise<void>;
}

declare module 'cloudflare:test' {
  interface ProvidedEnv {
    GREETING: string;
    KV: KV;
  }
}

describe('hello inside workerd', () => {
  it('the worker entry answers with wrangler.toml [vars]', async () => {
    const res = await SELF.fetch('http://example.com/env');
    expect(await res.text()).toBe('Hello from Workers');
    const home = await SELF.fetch('http://example.com/');
    expect(home.headers.get('content-type')).toBe('application/json');
    expect(await home.json()).toEqual({ hello: 'world' });
  });

  it('app.request with the test env sees the same bindings', async () => {
    const res = await app.request('/env', undefined, env);
    expect(await res.text()).toBe('Hello from Workers');
    const page = await app.request('/page');
    expect(await page.text()).toContain('<h1>Hello &lt;Rove&gt;</h1>');
  });

  it('a handler reads and writes the KV namespace', async () => {
    const counter = new App<{ Bindings: { KV: KV } }>();
    counter.post('/visits', async (c) => {
      const n = Number((await c.env.KV.get('visits')) ?? 0) + 1;
      await c.env.KV.put('visits', String(n));
      return c.json({ visits: n });
    });
    expect(await (await counter.request('/visits', { method: 'POST' }, env)).json()).toEqual({ visits: 1 });
    expect(await (await counter.request('/visits', { method: 'POST' }, env)).json()).toEqual({ visits: 2 });
    expect(await env.KV.get('visits')).toBe('2');
  });

  it('runs in workerd, not Node', () => {
    expect(typeof (globalThis as { WebSocketPair?: unknown }).WebSocketPair).toBe('function');
    expect(navigator.userAgent).toBe('Cloudflare-Workers');
  });
});
