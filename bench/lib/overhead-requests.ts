// The Requests the in-process overhead scripts (bench/overhead.ts, bench/overhead-deno.ts) hand to
// each app, one builder per scenario: the same requests the load test sends.
import { CORS_ORIGIN } from '../shared/app-layer.ts';
import { BENCH_TOKEN, ECHO_BODY, PARAMS_BODY } from '../shared/fixtures.ts';

const JSON_POST = (body: string) => ({ method: 'POST', headers: { 'content-type': 'application/json', 'content-length': String(body.length) }, body });

export const OVERHEAD_REQUESTS: Record<string, () => Request> = {
  test: () => new Request('http://x/test'),
  chain: () => new Request('http://x/chain', { headers: { authorization: `Bearer ${BENCH_TOKEN}` } }),
  params: () => new Request('http://x/params', JSON_POST(PARAMS_BODY)),
  echo: () => new Request('http://x/json', JSON_POST(ECHO_BODY)),
  fortunes: () => new Request('http://x/fortunes'),
  'cors-preflight': () =>
    new Request('http://x/api/data', {
      method: 'OPTIONS',
      headers: { origin: CORS_ORIGIN, 'access-control-request-method': 'POST', 'access-control-request-headers': 'content-type' },
    }),
};
