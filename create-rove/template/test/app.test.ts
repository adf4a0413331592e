import { describe, expect, it } from 'vitest';
import { app } from '../src/app.ts';

describe('app', () => {
  it('says hello', async () => {
    const res = await app.request('/');
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ hello: 'world' });
  });

  it('reads a path param', async () => {
    const res = await app.request('/users/42');
    expect(await res.json()).toEqual({ id: '42' });
  });

  it('echoes a JSON body', async () => {
    const res = await app.request('/echo', { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"a":1}' });
    expect(await res.json()).toEqual({ a: 1 });
  });

  it('serves public/ as /static/', async () => {
    const res = await app.request('/static/hello.txt');
    expect(res.status).toBe(200);
    expect(res.headers.get('cache-control')).toBe('public, max-age=3600');
    expect(await res.text()).toBe('Hello from public/hello.txt\n');
  });

  it('reads bindings from the env argument', async () => {
    const res = await app.request('/env', undefined, { GREETING: 'Hi from a test' });
    expect(await res.text()).toBe('Hi from a test');
  });
});
