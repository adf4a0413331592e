// TRACE answers 405 with Allow on every runtime, even behind middleware that reads c.req.raw
// (a Request cannot be built with TRACE, so that read used to fail the request with a 500).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rawRequest } from './raw-http.ts';
import { ALL_RUNTIMES, serveFixture } from './serve-fixture.ts';

const RUNTIMES = ALL_RUNTIMES;

describe.each(RUNTIMES)('TRACE on %s', (runtime) => {
  let port: number;
  let stop: () => Promise<void>;
  beforeAll(async () => {
    ({ port, stop } = await serveFixture(runtime));
  }, 60_000);
  afterAll(() => stop?.());

  it('answers 405 with Allow, and the server keeps serving', async () => {
    const res = await rawRequest(port, 'TRACE /traced HTTP/1.1\r\nHost: h\r\nConnection: close\r\n\r\n');
    expect(res.status).toBe(405);
    expect(res.headers.allow).toBe('GET, HEAD, OPTIONS');
    const again = await rawRequest(port, 'GET /traced HTTP/1.1\r\nHost: h\r\nConnection: close\r\n\r\n');
    expect(again.status).toBe(200);
    expect(again.body).toBe('traced');
  });
});
