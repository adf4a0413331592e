// One set of HTTP assertions, run against examples/hello on every runtime.

import { request as httpRequest } from 'node:http';
import { connect as connectTcp } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PAGE_DATA } from '../../examples/hello/app.ts';
import compiled from '../../examples/hello/views.gen.ts';
import { createViews } from '../../src/views/index.ts';
import { CONFORMANCE_RUNTIMES, type Running, start, wranglerVars } from './servers.ts';

const GREETING = 'Hello from the environment';
const PAGE = await createViews({ compiled }).render('page', PAGE_DATA);

/** A fixed body carries its exact length (a streamed one may carry none). */
function expectLength(res: Response, text: string): void {
  expect(res.headers.get('content-length')).toBe(String(Buffer.byteLength(text)));
}

/** Rove's errors are problem+json; a Content-Length, when sent, is the body's. */
async function expectProblem(res: Response, status: number): Promise<Record<string, unknown>> {
  expect(res.status).toBe(status);
  expect(res.headers.get('content-type')).toBe('application/problem+json');
  const text = await res.text();
  const length = res.headers.get('content-length');
  if (length !== null) expect(Number(length)).toBe(Buffer.byteLength(text));
  return JSON.parse(text) as Record<string, unknown>;
}

/** A raw HTTP/1.1 request, for what fetch won't send (an over-long body it can't stream slowly, odd paths). */
function raw(
  url: string,
  method: string,
  path: string,
  headers: Record<string, string> = {},
  body?: Buffer,
): Promise<{ status: number; headers: Record<string, unknown>; body: string }> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve, reject) => {
    const req = httpRequest({ hostname, port, method, path, headers, agent: false }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks).toString('utf8') }));
      res.on('error', reject);
    });
    req.on('error', reject);
    if (body) req.write(body);
    req.end();
  });
}

describe.each(CONFORMANCE_RUNTIMES)('conformance on %s', (runtime) => {
  let server: Running;
  let url: string;
  beforeAll(async () => {
    server = await start(runtime, 'examples/hello', '/', { GREETING });
    url = server.url;
  }, 60_000);
  afterAll(async () => {
    await server?.stop();
  });

  describe('routing', () => {
    it('GET / answers the hello JSON, exactly application/json with its length', async () => {
      const res = await fetch(`${url}/`);
      expect(res.status).toBe(200);
      const text = await res.text();
      expect(JSON.parse(text)).toEqual({ hello: 'world' });
      expect(res.headers.get('content-type')).toBe('application/json');
      expectLength(res, text);
    });

    it('a param reaches the handler', async () => {
      const res = await fetch(`${url}/users/42`);
      expect(res.status).toBe(200);
      const text = await res.text();
      expect(JSON.parse(text)).toEqual({ id: '42' });
      expect(res.headers.get('content-type')).toBe('application/json');
      expectLength(res, text);
    });

    it('percent-encoded Unicode params are decoded', async () => {
      for (const [sent, id] of [
        ['caf%C3%A9', 'café'],
        ['%E3%83%95%E3%83%AC%E3%83%BC%E3%83%A0', 'フレーム'],
        ['a%20b', 'a b'],
      ]) {
        const res = await fetch(`${url}/users/${sent}`);
        expect(res.status).toBe(200);
        expect(await res.json()).toEqual({ id });
      }
    });

    it('an encoded slash in the path answers 400 problem+json (docs/design.md: one path language)', async () => {
      for (const sent of ['a%2Fb', 'a%2fb']) {
        expect(await expectProblem(await fetch(`${url}/users/${sent}`), 400)).toMatchObject({ status: 400, title: 'Bad Request' });
      }
    });

    it('malformed percent-encoding answers 400', async () => {
      const res = await raw(url, 'GET', '/users/%E0%A4%A');
      expect(res.status).toBe(400);
      expect(res.headers['content-type']).toBe('application/problem+json');
    });

    it('an unknown path answers 404 problem+json', async () => {
      const problem = await expectProblem(await fetch(`${url}/nowhere`), 404);
      expect(problem).toMatchObject({ status: 404, title: 'Not Found' });
    });

    it('trailing slashes are strict', async () => {
      await expectProblem(await fetch(`${url}/users/42/`), 404);
    });
  });

  describe('methods', () => {
    it("HEAD runs GET, drops the body and keeps the GET's Content-Length (or sends none)", async () => {
      const res = await fetch(`${url}/`, { method: 'HEAD' });
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toBe('application/json');
      expect((await res.arrayBuffer()).byteLength).toBe(0);
      // RFC 9110: a HEAD answer's Content-Length, if any, is the GET body's ({"hello":"world"} is 17 bytes).
      expect([null, '17']).toContain(res.headers.get('content-length'));
    });

    it('HEAD with Connection: close (as fetch sends it): a server that closes says so in its answer', async () => {
      const { port } = new URL(url);
      const socket = connectTcp(Number(port), '127.0.0.1');
      let text = '';
      socket.on('data', (d: Buffer) => {
        text += d.toString('latin1');
      });
      socket.on('error', () => {});
      await new Promise((resolve) => socket.on('connect', resolve));
      socket.write('HEAD / HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n');
      // Closed, or still open after 1.5 s (workerd keeps it): a client may reuse only what is not closing.
      const closed = await Promise.race([
        new Promise<boolean>((resolve) => socket.on('close', () => resolve(true))),
        new Promise<boolean>((resolve) => setTimeout(() => resolve(false), 1500)),
      ]);
      socket.destroy();
      expect(text).toMatch(/^HTTP\/1\.1 200 /);
      if (closed) expect(text.toLowerCase()).toContain('\r\nconnection: close\r\n');
    });

    it('PUT on a GET path answers 405 problem+json with Allow', async () => {
      const res = await fetch(`${url}/`, { method: 'PUT' });
      expect(res.headers.get('allow')).toBe('GET, HEAD, OPTIONS');
      await expectProblem(res, 405);
    });

    it('OPTIONS answers Allow', async () => {
      const res = await fetch(`${url}/echo`, { method: 'OPTIONS' });
      expect(res.status).toBe(204);
      expect(res.headers.get('allow')).toBe('POST, OPTIONS');
      await res.arrayBuffer();
    });
  });

  describe('bodies', () => {
    it('POST /echo echoes JSON, Unicode included', async () => {
      const body = { a: 1, list: [true, null, 'x'], text: 'フレームワークのベンチマーク' };
      const res = await fetch(`${url}/echo`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
      expect(res.status).toBe(200);
      const text = await res.text();
      expect(JSON.parse(text)).toEqual(body);
      expect(res.headers.get('content-type')).toBe('application/json');
      expectLength(res, text);
    });

    it('invalid JSON answers 400 problem+json', async () => {
      const res = await fetch(`${url}/echo`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"a":' });
      expect(await expectProblem(res, 400)).toMatchObject({ status: 400, detail: 'Invalid JSON body' });
    });

    it('a body over 1 MiB answers 413 problem+json', async () => {
      const big = Buffer.alloc(1024 * 1024 + 1, 0x20);
      const res = await raw(url, 'POST', '/echo', { 'content-type': 'application/json', 'content-length': String(big.length) }, big);
      expect(res.status).toBe(413);
      expect(res.headers['content-type']).toBe('application/problem+json');
    });

    it('a chunked body over 1 MiB answers 413 too', async () => {
      const chunk = new Uint8Array(64 * 1024).fill(0x20);
      let sent = 0;
      const body = new ReadableStream<Uint8Array>({
        pull(controller) {
          if (sent >= 2 * 1024 * 1024) return controller.close();
          sent += chunk.byteLength;
          controller.enqueue(chunk);
        },
      });
      let status = 0;
      try {
        const res = await fetch(`${url}/echo`, { method: 'POST', body, duplex: 'half' } as RequestInit);
        status = res.status;
        await res.arrayBuffer();
      } catch {
        // A server may close the connection while the client still streams; what it answered is checked below.
      }
      if (status !== 0) expect(status).toBe(413);
      const after = await fetch(`${url}/`);
      expect(after.status).toBe(200);
      await after.arrayBuffer();
    });

    it('a body just under the limit is accepted', async () => {
      const value = 'x'.repeat(1024 * 1024 - 10);
      const res = await fetch(`${url}/echo`, { method: 'POST', body: JSON.stringify(value) });
      expect(res.status).toBe(200);
      expect(await res.json()).toBe(value);
    });
  });

  describe('limits', () => {
    it('a URL over 8 KiB answers 414', async () => {
      const res = await raw(url, 'GET', `/nowhere?q=${'a'.repeat(9000)}`);
      expect([414, 431]).toContain(res.status);
    });

    it('a param over 1 KiB answers 414', async () => {
      const res = await fetch(`${url}/users/${'a'.repeat(1500)}`);
      expect(res.status).toBe(414);
      await res.arrayBuffer();
    });
  });

  describe('errors', () => {
    it('a thrown error answers 500 problem+json without internals', async () => {
      const res = await fetch(`${url}/boom`, { headers: { accept: 'application/json' } });
      expect(res.status).toBe(500);
      expect(res.headers.get('content-type')).toBe('application/problem+json');
      const text = await res.text();
      expect(JSON.parse(text)).toEqual({ type: 'about:blank', title: 'Internal Server Error', status: 500 });
      expect(text).not.toMatch(/must not|stack|at /);
    });

    it('a browser gets a short HTML error page', async () => {
      const res = await fetch(`${url}/boom`, { headers: { accept: 'text/html,application/xhtml+xml,*/*;q=0.8' } });
      expect(res.status).toBe(500);
      expect(res.headers.get('content-type')).toMatch(/^text\/html/);
      const text = await res.text();
      expect(text).toContain('500 Internal Server Error');
      expect(text).not.toContain('must not');
    });

    it('the server keeps serving after errors', async () => {
      const res = await fetch(`${url}/`);
      expect(res.status).toBe(200);
      await res.arrayBuffer();
    });
  });

  describe('environment', () => {
    it('GET /env answers GREETING from the runtime environment', async () => {
      const res = await fetch(`${url}/env`);
      expect(res.status).toBe(200);
      const expected = runtime === 'workerd' ? wranglerVars().GREETING : GREETING;
      const text = await res.text();
      expect(text).toBe(expected);
      // The spec's type for a string body; Bun spells the charset in lower case.
      expect(res.headers.get('content-type')).toMatch(/^text\/plain;\s*charset=utf-8$/i);
      expectLength(res, text);
    });
  });

  describe('views', () => {
    it('renders a page with a layout, a loop and an include, identically', async () => {
      const res = await fetch(`${url}/page`);
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toBe('text/html; charset=utf-8');
      const html = await res.text();
      expect(html).toBe(PAGE);
      expectLength(res, html);
      expect(html).toContain('<title>Hello &lt;Rove&gt;</title>');
      expect(html).toContain('<li class="first">1. ワン</li>');
      expect(html).toContain('2. &lt;b&gt;two&lt;/b&gt;');
    });

    it('streams the same page', async () => {
      const res = await fetch(`${url}/page?stream=1`);
      expect(res.headers.get('content-type')).toBe('text/html; charset=utf-8');
      expect(await res.text()).toBe(PAGE);
    });

    it('a view error answers 500 without details', async () => {
      const res = await fetch(`${url}/missing-view`);
      expect(res.status).toBe(500);
      const text = await res.text();
      expect(text).not.toContain('no/such/view');
    });
  });

  describe('streaming', () => {
    it('GET /stream arrives in several chunks', async () => {
      const res = await fetch(`${url}/stream`);
      expect(res.status).toBe(200);
      const reader = res.body!.getReader();
      const decoder = new TextDecoder();
      let text = '';
      let reads = 0;
      for (;;) {
        const { done, value } = await reader.read();
        if (done) break;
        reads++;
        text += decoder.decode(value, { stream: true });
      }
      expect(text).toBe('chunk 1\nchunk 2\nchunk 3\nchunk 4\nchunk 5\n');
      expect(reads).toBeGreaterThan(1);
    });

    it('a client that aborts mid-response does not hurt the server', async () => {
      const controller = new AbortController();
      const res = await fetch(`${url}/stream`, { signal: controller.signal });
      const reader = res.body!.getReader();
      await reader.read();
      controller.abort();
      await expect(reader.read()).rejects.toThrow();
      await new Promise((r) => setTimeout(r, 100));
      const after = await fetch(`${url}/users/ok`);
      expect(after.status).toBe(200);
      expect(await after.json()).toEqual({ id: 'ok' });
      expect(server.child.exited).toBe(false);
    });
  });
});
