/// <reference types="@cloudflare/vitest-pool-workers" />
// Inside workerd: the worker entry as it is deployed (SELF), and the app with the real bindings.
import { env, SELF } from 'cloudflare:test';
import { describe, expect, it } from 'vitest';
import { app } from '../../src/app.ts';

describe('app inside workerd', () => {
  it('the worker entry answers, with the [vars] of wrangler.toml', async () => {
    expect(await (await SELF.fetch('http://example.com/')).json()).toEqual({ hello: 'world' });
    expect(await (await SELF.fetch('http://example.com/env')).text()).toBe('Hello from Workers');
  });

  it('serves public/ through the ASSETS binding', async () => {
    const res = await SELF.fetch('http://example.com/static/hello.txt');
    expect(res.status).toBe(200);
    expect(await res.text()).toBe('Hello from public/hello.txt\n');
  });

  it('app.request takes the real bindings', async () => {
    expect(await (await app.request('/env', undefined, env)).text()).toBe('Hello from Workers');
  });
});
