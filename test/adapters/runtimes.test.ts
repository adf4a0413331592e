// What each runtime adapter itself guarantees, over real HTTP on node, deno,
// bun and deno serve: the Host check, OPTIONS *, no runtime error page, the
// client address, HEAD, and graceful shutdown on SIGTERM.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rawRequest, timeUntilClosed, withHost } from './raw-http.ts';
import { type Fixture, type FixtureRuntime, startFixture, withNode24 } from './spawn.ts';

const RUNTIMES: FixtureRuntime[] = withNode24(['node', 'deno', 'bun', 'deno-deploy'] as const);
const BAD_HOSTS = ['a b', 'x/inner/panel?', 'a@b', '', 'a\\b', 'a#b', 'a\tb', 'h?x'];

function problem(answer: { status: number; headers: Record<string, string>; body: string }, status: number) {
  expect(answer.status).toBe(status);
  expect(answer.headers['content-type']).toBe('application/problem+json');
  return JSON.parse(answer.body) as Record<string, unknown>;
}

describe.each(RUNTIMES)('%s adapter', (runtime) => {
  let fx: Fixture;
  beforeAll(async () => {
    fx = await startFixture(runtime);
    // The readiness request's own log line may come late: let it land before lines are counted.
    await fx.waitFor(/^complete /);
  }, 60_000);
  afterAll(() => fx?.stop());

  describe('a Host that could move the path answers 400 problem+json before the app runs', () => {
    it.each(BAD_HOSTS)('Host: %j', async (host) => {
      const before = fx.lines.filter((l) => l.startsWith('complete')).length;
      const body = problem(await withHost(fx.port, host, '/public/page'), 400);
      expect(body).toMatchObject({ status: 400, title: 'Bad Request', detail: 'Invalid Host header' });
      await new Promise((r) => setTimeout(r, 50));
      expect(fx.lines.filter((l) => l.startsWith('complete')).length).toBe(before);
    });

    it('an ordinary Host, with a port or an IPv6 address, is served', async () => {
      for (const host of ['example.com', 'example.com:8080', '[::1]:8080', '127.0.0.1']) {
        const res = await withHost(fx.port, host, '/public/page');
        expect(res.status).toBe(200);
        expect(res.body).toBe('public');
      }
    });

    it('the path comes from the request target, not the Host', async () => {
      const res = await withHost(fx.port, 'example.com', '/x/where');
      expect(res.body).toBe('x/where');
    });
  });

  it('an HTTP/1.0 request without Host is served, except on Bun, whose request.url would lose its origin', async () => {
    const res = await rawRequest(fx.port, 'GET /x/where HTTP/1.0\r\n\r\n');
    if (runtime === 'bun') expect(problem(res, 400)).toMatchObject({ detail: 'A Host header is required' });
    else expect(res.body).toBe('x/where');
  });

  it('OPTIONS * answers 400', async () => {
    const res = await rawRequest(fx.port, 'OPTIONS * HTTP/1.1\r\nHost: h\r\nConnection: close\r\n\r\n');
    expect(res.status).toBe(400);
    // Bun refuses it natively, before any code runs, with an empty body.
    if (runtime !== 'bun') expect(problem(res, 400)).toMatchObject({ detail: 'OPTIONS * is not supported' });
  });

  describe('no runtime error page, ever', () => {
    it.each(['/escape', '/escape-async'])('something escaping the app (%s) answers the plain problem+json 500', async (path) => {
      const res = await withHost(fx.port, 'h', path);
      expect(problem(res, 500)).toEqual({ type: 'about:blank', title: 'Internal Server Error', status: 500 });
      expect(res.body).not.toContain('secret');
    });

    it.each(['/nothing', '/crlf?v=a%0D%0Ab', '/control'])('a failing handler (%s) answers problem+json 500 through the app', async (path) => {
      const res = await withHost(fx.port, 'h', path);
      expect(problem(res, 500)).toMatchObject({ status: 500 });
      expect(res.headers['x-echo']).toBeUndefined();
    });
  });

  it('c.req.ip is the socket peer, and request events report the same', async () => {
    const res = await fetch(`http://127.0.0.1:${fx.port}/ip`, { headers: { 'x-forwarded-for': '203.0.113.9' } });
    expect(await res.json()).toEqual({ ip: '127.0.0.1' });
    await fx.waitFor(/^complete 200 127\.0\.0\.1$/);
  });

  it('HEAD carries the GET Content-Length and no body', async () => {
    const res = await rawRequest(fx.port, 'HEAD /seventeen HTTP/1.1\r\nHost: h\r\nConnection: close\r\n\r\n', '', 2000);
    expect(res.status).toBe(200);
    expect(res.headers['content-length']).toBe('17');
    expect(res.body).toBe('');
  });

  it('c.req.header() answers as request.headers.get: any case, repeated lines joined, null when absent', async () => {
    const res = await rawRequest(fx.port, 'GET /headers HTTP/1.1\r\nHost: h\r\nX-A: 1\r\nx-a: 2\r\nx-b: B\r\nConnection: close\r\n\r\n');
    expect(JSON.parse(res.body)).toEqual({ a: '1, 2', b: 'B', host: 'h' });
    const post = await rawRequest(fx.port, 'POST /length HTTP/1.1\r\nHost: h\r\nContent-Length: 5\r\nConnection: close\r\n\r\n', 'hello');
    expect(JSON.parse(post.body)).toEqual({ length: '5', text: 'hello' });
  });

  // On Deno, c.req.header() skips building the Headers; once a handler built them, they answer.
  it('c.req.header() after the handler read c.req.raw.headers', async () => {
    const res = await rawRequest(fx.port, 'GET /headers-built HTTP/1.1\r\nHost: h\r\nX-A: 1\r\nConnection: close\r\n\r\n');
    expect(JSON.parse(res.body)).toEqual({ built: '1', a: '1' });
  });

  it('a CR/LF taken from the query never reaches the response headers', async () => {
    const res = await withHost(fx.port, 'h', '/crlf?v=x%0D%0ASet-Cookie:%20a=1');
    expect(res.status).toBe(500);
    expect(res.headers['set-cookie']).toBeUndefined();
  });
});

describe.each(withNode24(['node', 'deno', 'bun'] as const))('%s graceful shutdown', (runtime) => {
  it('SIGTERM lets an in-flight request finish, emits server:shutdown, then exits 0', async () => {
    const fx = await startFixture(runtime);
    try {
      await fx.waitFor(/^listening http:\/\/127\.0\.0\.1:\d+\/$/);
      const pending = fetch(`http://127.0.0.1:${fx.port}/slow?ms=800`).then((r) => r.text());
      await new Promise((r) => setTimeout(r, 300));
      process.kill(fx.child.pid, 'SIGTERM');
      expect(await pending).toBe('done');
      expect(await fx.exited()).toBe(0);
      expect(fx.lines).toContain('shutdown');
    } finally {
      await fx.stop();
    }
  }, 30_000);

  it('shutdownTimeoutMs bounds the wait: a request still running is cut', async () => {
    const fx = await startFixture(runtime, { SHUTDOWN_MS: '300' });
    try {
      const pending = fetch(`http://127.0.0.1:${fx.port}/slow?ms=20000`).then(
        (r) => r.text(),
        () => 'cut',
      );
      await new Promise((r) => setTimeout(r, 300));
      const started = Date.now();
      process.kill(fx.child.pid, 'SIGTERM');
      expect(await fx.exited()).toBe(0);
      expect(Date.now() - started).toBeLessThan(5000);
      expect(await pending).toBe('cut');
    } finally {
      await fx.stop();
    }
  }, 30_000);
});

describe('bun timeouts', () => {
  it('idleTimeoutMs becomes Bun.serve idleTimeout: an idle keep-alive connection is closed', async () => {
    const fx = await startFixture('bun', { IDLE_MS: '1000' });
    try {
      const closed = await timeUntilClosed(fx.port, 'GET / HTTP/1.1\r\nHost: h\r\n\r\n', undefined, 8000);
      expect(closed).toBeGreaterThanOrEqual(900);
      expect(closed).toBeLessThan(6000);
    } finally {
      await fx.stop();
    }
  }, 30_000);
});
