// An error that escapes a handler is logged once by default, over real HTTP on every runtime:
// the server process's stderr gets `rove: GET /boom failed:`, the message and the stack, and the
// client a 500 that shows none of it. A client error (an HttpError under 500) logs nothing.
// The format in process: test/core/error-log.test.ts. The app: test/adapters/fixtures/app.ts,
// served by the adapter fixtures (spawn.ts) and, as fixtures/worker.ts, by bare workerd through
// the conformance suite's start() (workerd writes a Worker's console.error to its own stderr).
import type { Readable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Child } from '../../dev/proc.ts';
import { start } from '../conformance/servers.ts';
import { type FixtureRuntime, startFixture, withNode24 } from './spawn.ts';

const RUNTIMES = withNode24(['node', 'deno', 'bun', 'deno-deploy', 'workerd'] as const);

const HEAD = 'rove: GET /boom failed:';
// Node, Deno and workerd print `Error: handler failed: boom`, Bun `error: …` after a code frame;
// each follows it with stack frames.
const MESSAGE = /[Ee]rror: handler failed: boom$/gm;
const LOGGED = /[Ee]rror: handler failed: boom\n\s+at \S/;

interface Served {
  url: string;
  child: Child;
  stop(): Promise<void>;
}

async function serve(runtime: FixtureRuntime | 'workerd'): Promise<Served> {
  if (runtime === 'workerd') return start('workerd', 'test/adapters/fixtures');
  const fx = await startFixture(runtime);
  return { url: `http://127.0.0.1:${fx.port}`, child: fx.child, stop: () => fx.stop() };
}

/** All the child writes to `stream` from now on (the fixture's own reader keeps stdout lines only). */
function record(stream: Readable): () => string {
  let text = '';
  stream.on('data', (chunk: Buffer) => {
    text += chunk.toString('utf8');
  });
  return () => text;
}

async function until(done: () => boolean, what: () => string, timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!done()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for the log; stderr so far:\n${what()}`);
    await new Promise((r) => setTimeout(r, 25));
  }
}

interface Answer {
  status: number;
  type: string | null;
  body: string;
}

async function get(url: string): Promise<Answer> {
  const res = await fetch(url);
  return { status: res.status, type: res.headers.get('content-type'), body: await res.text() };
}

describe.each(RUNTIMES)('on %s, errors that escape a handler', (runtime) => {
  let server: Served;
  let stderr: () => string;
  let stdout: () => string;
  let teapot: Answer;
  let boom: Answer;

  beforeAll(async () => {
    server = await serve(runtime);
    stderr = record(server.child.proc.stderr!);
    stdout = record(server.child.proc.stdout!);
    // The 418 first: were it logged, its report would reach stderr before the 500's, which is awaited.
    teapot = await get(`${server.url}/teapot`);
    boom = await get(`${server.url}/boom`);
    await until(() => LOGGED.test(stderr()), stderr);
    // A second report of the same error, were there one, would have landed by now.
    await new Promise((r) => setTimeout(r, 300));
  }, 60_000);
  afterAll(() => server?.stop());

  it('answer the client a 500 problem+json that carries no message', () => {
    expect(boom.status).toBe(500);
    expect(boom.type).toBe('application/problem+json');
    expect(JSON.parse(boom.body)).toEqual({ type: 'about:blank', title: 'Internal Server Error', status: 500 });
    expect(boom.body).not.toContain('boom');
  });

  it('are logged once on stderr: the method and path, then the message and its stack', () => {
    const text = stderr();
    expect(text.match(/^rove: .*$/gm)).toEqual([expect.stringMatching(/^rove: GET \/boom failed:/)]);
    const report = text.slice(text.indexOf(HEAD));
    expect(report.match(MESSAGE)).toHaveLength(1);
    expect(report).toMatch(LOGGED);
    expect(stdout()).not.toContain('rove:');
  });

  it('are not logged when they are the client’s: a thrown HttpError(418) answers 418, silently', () => {
    expect(teapot.status).toBe(418);
    expect(teapot.type).toBe('application/problem+json');
    expect(stderr()).not.toContain('/teapot');
  });
});

describe('on node, a request that times out (timeout())', () => {
  let server: Served;
  let stderr: () => string;

  beforeAll(async () => {
    server = await serve('node');
    stderr = record(server.child.proc.stderr!);
  }, 60_000);
  afterAll(() => server?.stop());

  it('logs nothing when the handler stops on the signal: the 504 is an answer', async () => {
    const res = await get(`${server.url}/timeout/abort`);
    expect(res.status).toBe(504);
    expect(res.type).toBe('application/problem+json');
    // Were the 504 or the abort reason reported, it would have landed by now.
    await new Promise((r) => setTimeout(r, 300));
    expect(stderr()).not.toContain('rove:');
  });

  it('logs once a handler that ignores the signal and throws after the 504 went out', async () => {
    const res = await get(`${server.url}/timeout/late`);
    expect(res.status).toBe(504);
    await until(() => /handler failed after its 504/.test(stderr()), stderr);
    await new Promise((r) => setTimeout(r, 300));
    expect(stderr().match(/^rove: .*$/gm)).toEqual([expect.stringMatching(/^rove: GET \/timeout\/late failed: Error: handler failed after its 504/)]);
  });
});
