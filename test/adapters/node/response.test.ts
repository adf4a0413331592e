import type { ServerResponse } from 'node:http';
import { describe, expect, it } from 'vitest';
import { type NodeResponse, respond } from '../../../adapters/node/response.ts';
import { checkUnlessBuilt as check } from '../../../adapters/shared/checked-response.ts';

/** A stand-in for ServerResponse that records the one writeHead + end. */
function recorder() {
  const written: { status?: number; headers?: Record<string, unknown>; body?: unknown; ended: boolean } = { ended: false };
  const res = {
    writeHead(status: number, headers: Record<string, unknown>) {
      written.status = status;
      written.headers = headers;
    },
    end(body?: unknown) {
      written.body = body;
      written.ended = true;
    },
  } as unknown as ServerResponse;
  return { res, written };
}

function outcome(build: () => unknown): string {
  try {
    build();
    return 'ok';
  } catch (error) {
    return (error as Error).constructor.name;
  }
}

describe('node light response', () => {
  it('is instanceof Response and answers like one', async () => {
    const res = respond('{"a":1}', 201, { 'content-type': 'application/json' });
    expect(res).toBeInstanceOf(Response);
    expect(res.status).toBe(201);
    expect(res.ok).toBe(true);
    expect(res.statusText).toBe('');
    expect(res.type).toBe('default');
    expect(res.headers.get('content-type')).toBe('application/json');
    expect(await res.clone().json()).toEqual({ a: 1 });
    expect(await res.text()).toBe('{"a":1}');
    expect(res.bodyUsed).toBe(true);
  });

  it('bytes and null bodies read as they would from a Response', async () => {
    expect(new Uint8Array(await respond(new Uint8Array([1, 2]), 200, {}).arrayBuffer())).toEqual(new Uint8Array([1, 2]));
    const empty = respond(null, 204, {});
    expect(empty.body).toBeNull();
    expect(await empty.text()).toBe('');
  });

  it('a string body without a content type gets the one new Response gives', () => {
    expect(respond('hi', 200, {}).headers.get('content-type')).toBe(new Response('hi').headers.get('content-type'));
    expect(respond(new Uint8Array(1), 200, {}).headers.get('content-type')).toBeNull();
  });

  it.each([199, 600, 0, Number.NaN, 200.5, 299.9])('status %s is refused or accepted as new Response does', (status) => {
    expect(outcome(() => respond('x', status, {}))).toBe(outcome(() => new Response('x', { status })));
  });

  it.each([204, 205, 304])('status %s with a body is refused as new Response does', (status) => {
    expect(outcome(() => respond('', status, {}))).toBe('TypeError');
    expect(outcome(() => respond(null, status, {}))).toBe('ok');
  });

  it.each(['a b', '', 'é', 'a:b', 'a\nb'])('header name %j is refused as new Response refuses it', (name) => {
    expect(outcome(() => respond('x', 200, { [name]: 'v' }))).toBe(outcome(() => new Response('x', { headers: { [name]: 'v' } })));
  });

  it.each(['a\r\nb', 'a\nb', 'a\rb', 'a\0b', '€', 'plain', 'é', ' padded\t', 'x\r\n', '\r\nx'])(
    'header value %j is refused as new Response refuses it',
    (value) => {
      expect(outcome(() => respond('x', 200, { 'x-v': value }))).toBe(outcome(() => new Response('x', { headers: { 'x-v': value } })));
    },
  );

  it('a CR/LF value is refused in every Set-Cookie entry', () => {
    expect(() => respond('x', 200, { 'set-cookie': ['a=1', 'b=2\r\nx: y'] })).toThrow(TypeError);
  });

  it('values are trimmed of CR/LF and spaces at the ends as Headers trims them', () => {
    const { res, written } = recorder();
    (respond('x', 200, { 'x-v': 'x\r\n' }) as unknown as NodeResponse).writeTo(res);
    expect(written.headers!['x-v']).toBe('x');
  });

  it.each(['a\u0001b', 'a\u007fb', 'a\u000bb'])('also refuses %j, which Headers lets through and node:http cannot send', (value) => {
    expect(() => new Response('x', { headers: { 'x-v': value } })).not.toThrow();
    expect(() => respond('x', 200, { 'x-v': value })).toThrow(TypeError);
  });

  it('is written with one writeHead + end and the payload length', () => {
    const { res, written } = recorder();
    const light = respond('héllo', 200, { 'content-type': 'text/plain' }) as unknown as NodeResponse;
    expect(light.writeTo(res)).toBe(true);
    expect(written).toEqual({ status: 200, headers: { 'content-type': 'text/plain', 'content-length': '6' }, body: 'héllo', ended: true });
  });

  it('writes header changes made through .headers', () => {
    const { res, written } = recorder();
    const light = respond('x', 200, { 'set-cookie': ['a=1'] });
    light.headers.append('set-cookie', 'b=2');
    light.headers.set('x-late', '1');
    (light as unknown as NodeResponse).writeTo(res);
    expect(written.headers).toMatchObject({ 'x-late': '1', 'set-cookie': ['a=1', 'b=2'] });
  });

  it('once its body was read or taken, leaves the write to the general path', () => {
    const read = respond('x', 200, {});
    void read.text();
    expect((read as unknown as NodeResponse).writeTo(recorder().res)).toBe(false);
    const taken = respond('x', 200, {});
    void taken.body;
    expect((taken as unknown as NodeResponse).writeTo(recorder().res)).toBe(false);
    const cloned = respond('x', 200, {});
    void cloned.clone();
    expect((cloned as unknown as NodeResponse).writeTo(recorder().res)).toBe(true);
  });
});

describe('checkUnlessBuilt() on Node', () => {
  it('passes what node:http can send', () => {
    expect(() => check(new Response('x', { headers: { 'x-a': 'é\tb' } }))).not.toThrow();
    expect(() => check(respond('x', 200, {}))).not.toThrow();
  });

  it('throws for a control byte Headers allows and writeHead refuses', () => {
    expect(() => check(new Response('x', { headers: { 'x-a': 'a\u0001b' } }))).toThrow(TypeError);
  });

  it('checks a light response whose headers were changed after it was built', () => {
    const light = respond('x', 200, {});
    light.headers.set('x-a', 'a\u0001b');
    expect(() => check(light)).toThrow(TypeError);
  });
});
