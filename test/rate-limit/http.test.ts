// rateLimit() and timeout() over real HTTP on every runtime.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RUNTIMES, type Running, start } from '../conformance/servers.ts';

describe.each(RUNTIMES)('rate limit and timeout on %s', (runtime) => {
  let server: Running;
  beforeAll(async () => {
    server = await start(runtime, 'test/rate-limit/app');
  }, 60_000);
  afterAll(async () => {
    await server?.stop();
  });

  it('limits a client to 3 requests a minute: 429 problem+json with Retry-After and the RateLimit fields', async () => {
    for (let i = 2; i >= 0; i--) {
      const res = await fetch(`${server.url}/limited`);
      expect(res.status).toBe(200);
      expect(await res.text()).toBe('counted');
      expect(res.headers.get('ratelimit-policy')).toBe('"default";q=3;w=60');
      expect(res.headers.get('ratelimit')).toMatch(new RegExp(`^"default";r=${i};t=(60|59)$`));
    }
    const refused = await fetch(`${server.url}/limited`);
    expect(refused.status).toBe(429);
    expect(refused.headers.get('content-type')).toBe('application/problem+json');
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThanOrEqual(59);
    expect(refused.headers.get('ratelimit')).toMatch(/^"default";r=0;t=(60|59)$/);
    expect(((await refused.json()) as { status: number }).status).toBe(429);
  });

  it('counts each key apart', async () => {
    const get = (client: string) => fetch(`${server.url}/keyed`, { headers: { 'x-client': client } });
    for (const client of ['a', 'a', 'b']) expect((await get(client)).status).toBe(200);
    expect((await get('a')).status).toBe(429);
    expect((await get('b')).status).toBe(200);
    expect((await get('b')).status).toBe(429);
  });

  it('answers 504 at the deadline and aborts the signal the handler holds', async () => {
    const started = Date.now();
    const res = await fetch(`${server.url}/slow`);
    expect(res.status).toBe(504);
    expect(res.headers.get('content-type')).toBe('application/problem+json');
    await res.arrayBuffer();
    expect(Date.now() - started).toBeLessThan(3000);
    expect(await (await fetch(`${server.url}/aborted`)).text()).toBe('TimeoutError');
    expect(await (await fetch(`${server.url}/fast`)).text()).toBe('false');
  });

  it('cache() answers repeats, honouring Vary: from the Cache API on Deno, deno serve and Workers, from memory on Node and Bun', async () => {
    const get = async (lang: string) => {
      const res = await fetch(`${server.url}/cached`, { headers: { 'accept-language': lang } });
      const text = await res.text();
      await new Promise((r) => setTimeout(r, 50)); // the store happens after the answer
      return { text, age: res.headers.get('age') };
    };
    const first = await get('en');
    const again = await get('en');
    const other = await get('fr');
    const n = Number(first.text.split(' ')[1]);
    expect(again).toEqual({ text: first.text, age: '0' });
    expect(other.text).toBe(`served ${n + 1}`);
  });

  it('cache() forgets a URL when a PUT to it succeeds', async () => {
    const read = async () => {
      const res = await fetch(`${server.url}/thing`);
      const body = await res.json();
      await new Promise((r) => setTimeout(r, 50));
      return { body, age: res.headers.get('age') };
    };
    const first = (await read()).body as { version: number };
    expect(await read()).toEqual({ body: first, age: '0' });
    const put = await fetch(`${server.url}/thing`, { method: 'PUT' });
    expect(await put.json()).toEqual({ version: first.version + 1 });
    expect(await read()).toEqual({ body: { version: first.version + 1 }, age: null });
    expect(await read()).toEqual({ body: { version: first.version + 1 }, age: '0' });
  });
});
