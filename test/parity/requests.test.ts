import { describe, expect, it } from 'vitest';
import { diff, label, maskCookie, type Normalized, normalize } from '../../adapters/cli/parity/compare.ts';
import { NOT_FOUND_PROBE, parseHttpFile, parseJsonRequests, requestsFromRoutes, samplePath } from '../../adapters/cli/parity/requests.ts';
import type { Runtime } from '../../adapters/cli/parity/runtimes.ts';

describe('parity requests', () => {
  it('an .http file gives method, path, headers and body, with ### between requests', () => {
    const list = parseHttpFile(
      '@base = http://localhost:8000\n# a comment\nGET {{base}}/users/1?x=2 HTTP/1.1\nAccept: application/json\n\n###  log in\nPOST /login\nContent-Type: application/json\n\n{"user":"a"}\n\n###\n/plain\n',
    );
    expect(list).toEqual([
      { name: 'GET /users/1?x=2', method: 'GET', path: '/users/1?x=2', headers: [['Accept', 'application/json']] },
      { name: 'log in', method: 'POST', path: '/login', headers: [['Content-Type', 'application/json']], body: '{"user":"a"}' },
      { name: 'GET /plain', method: 'GET', path: '/plain', headers: [] },
    ]);
  });

  it('a JSON list sends a non-string body as JSON', () => {
    expect(parseJsonRequests('[{"method":"post","path":"/echo","body":{"a":1}},{"url":"/"}]')).toEqual([
      { name: 'POST /echo', method: 'POST', path: '/echo', headers: [['content-type', 'application/json']], body: '{"a":1}' },
      { name: 'GET /', method: 'GET', path: '/', headers: [] },
    ]);
  });

  it('route samples fit their constraints', () => {
    expect(samplePath('/users/:id')).toBe('/users/1');
    expect(samplePath('/posts/:slug{[a-z]+}')).toBe('/posts/sample');
    expect(samplePath('/files/*')).toBe('/files/sample');
  });

  it('the route table gives each route, HEAD for GETs, OPTIONS per path and a 404 probe', () => {
    const list = requestsFromRoutes([
      { method: 'GET', path: '/' },
      { method: 'POST', path: '/items/:id{[0-9]+}' },
    ]).map((r) => r.name);
    expect(list).toEqual(['GET /', 'HEAD /', 'POST /items/1', 'OPTIONS /', 'OPTIONS /items/1', `GET ${NOT_FOUND_PROBE}`]);
  });
});

describe('parity masking', () => {
  it('a session cookie keeps its name and attributes; its token value and Expires are masked', () => {
    expect(maskCookie('sid=0123456789abcdef0123; Path=/; HttpOnly; Expires=Wed, 21 Oct 2026 07:28:00 GMT').masked).toBe(
      'sid=<token>; Expires=<date>; HttpOnly; Path=/',
    );
    expect(maskCookie('theme=dark; Path=/').masked).toBe('theme=dark; Path=/');
  });

  it('request ids, nonces, dates and ETag values are masked; the rest is compared', () => {
    const body = new TextEncoder().encode('<script nonce="abc123XYZ">x</script> id=req-12345678 at 2026-11-27T20:00:00.000Z');
    const n = normalize({
      status: 200,
      headers: [
        ['date', 'now'],
        ['x-request-id', 'req-12345678'],
        ['content-security-policy', "script-src 'nonce-abc123XYZ'"],
        ['etag', 'W/"abc"'],
        ['content-type', 'text/html'],
      ],
      body,
    });
    expect(Object.fromEntries(n.headers)).toEqual({
      'x-request-id': '<volatile>',
      'content-security-policy': "script-src 'nonce-<nonce>'",
      etag: 'W/"<etag>"',
      'content-type': 'text/html',
    });
    expect(n.body).toBe('<script nonce="<nonce>">x</script> id=<volatile> at <time>');
  });

  it('--mask patterns mask what they match in bodies', () => {
    const n = normalize({ status: 200, headers: [], body: new TextEncoder().encode('served by pid 4242 in 3 ms') }, [/pid \d+/g, /\d+ ms/g]);
    expect(n.body).toBe('served by <masked> in <masked>');
  });

  it('a request no runtime answered is a difference, with the reason', () => {
    const failed = (error: string) => normalize({ status: 0, headers: [], body: new Uint8Array(), error });
    const diffs = diff(
      new Map<Runtime, Normalized>([
        ['node', failed('ECONNRESET')],
        ['deno', failed('ECONNRESET')],
      ]),
    );
    expect(diffs).toEqual([{ aspect: 'error', groups: [{ runtimes: ['node', 'deno'], value: 'ECONNRESET' }] }]);
  });

  it('no known rule covers answers whose status differs', () => {
    const answer = (status: number, length?: string) =>
      normalize({ status, headers: length === undefined ? [] : [['content-length', length]], body: new TextEncoder().encode('x') });
    const answers = new Map<Runtime, Normalized>([
      ['node', answer(200, '1')],
      ['bun', answer(200, '1')],
      ['deno', answer(404)],
    ]);
    const request = { name: 'GET /x', method: 'GET', path: '/x', headers: [] };
    const labelled = label(diff(answers), request, { assetFiles: new Set(), assetPaths: new Set(), answers });
    expect(labelled.map((d) => d.aspect)).toEqual(['status', 'header content-length']);
    expect(labelled.every((d) => d.known === undefined)).toBe(true);
    // The same Content-Length difference with the same status is the known one.
    const same = new Map<Runtime, Normalized>([...answers].map(([r, n]) => [r, r === 'deno' ? answer(200) : n]));
    expect(label(diff(same), request, { assetFiles: new Set(), assetPaths: new Set(), answers: same })[0].known).toMatch(/^ended-stream-length/);
  });
});
