import { isIP } from 'node:net';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { addressMatcher, parseIp, type TrustProxy, type TrustProxyOptions, trustProxy } from '../../src/http/trust-proxy.ts';
import { App } from '../../src/index.ts';

/** What the app sees behind a peer at `socket`: `c.req.ip` and `c.req.protocol`. */
async function seen(trust: TrustProxy | undefined, socket: string | undefined, headers: Record<string, string> = {}, options?: TrustProxyOptions) {
  const app = new App(trust === undefined ? {} : { trustProxy: trustProxy(trust, options) });
  const handle = app.bind({ address: () => socket });
  app.get('/', (c) => c.json({ ip: c.req.ip ?? null, protocol: c.req.protocol }));
  const res = await handle(new Request('http://localhost/', { headers }), {}, undefined);
  return (await res.json()) as { ip: string | null; protocol: string };
}

async function ip(trust: TrustProxy | undefined, socket: string | undefined, headers: Record<string, string> = {}, options?: TrustProxyOptions) {
  return (await seen(trust, socket, headers, options)).ip;
}

describe('c.req.ip', () => {
  it('is the socket peer, and forwarding headers are ignored unless proxies are trusted', async () => {
    expect(await ip(undefined, '203.0.113.5', { 'x-forwarded-for': '1.2.3.4' })).toBe('203.0.113.5');
    expect(await ip(undefined, undefined)).toBeNull();
  });

  it('with a hop count, takes the address that many proxies left of the socket', async () => {
    const xff = { 'x-forwarded-for': '198.51.100.1, 10.0.0.2, 10.0.0.3' };
    expect(await ip(1, '10.0.0.9', xff)).toBe('10.0.0.3');
    expect(await ip(2, '10.0.0.9', xff)).toBe('10.0.0.2');
    expect(await ip(3, '10.0.0.9', xff)).toBe('198.51.100.1');
    expect(await ip(9, '10.0.0.9', xff)).toBe('198.51.100.1');
    expect(await ip(1, '10.0.0.9')).toBe('10.0.0.9');
  });

  it('with a list, walks left past trusted addresses and CIDR ranges', async () => {
    const trust = ['10.0.0.0/8', '::1', 'fd00::/8'];
    expect(await ip(trust, '10.0.0.9', { 'x-forwarded-for': '198.51.100.1, 10.1.2.3' })).toBe('198.51.100.1');
    expect(await ip(trust, '::1', { 'x-forwarded-for': '2001:db8::1, fd12::1' })).toBe('2001:db8::1');
    // A spoofed entry left of an untrusted hop is never reached.
    expect(await ip(trust, '10.0.0.9', { 'x-forwarded-for': '6.6.6.6, 198.51.100.1' })).toBe('198.51.100.1');
    // An untrusted socket: headers ignored.
    expect(await ip(trust, '198.51.100.7', { 'x-forwarded-for': '6.6.6.6' })).toBe('198.51.100.7');
    // IPv4-mapped IPv6 sockets match IPv4 ranges.
    expect(await ip(trust, '::ffff:10.0.0.9', { 'x-forwarded-for': '198.51.100.1' })).toBe('198.51.100.1');
  });

  it('reads Forwarded (RFC 7239) when chosen, stripping quotes, brackets and ports', async () => {
    const rfc = { header: 'forwarded' } as const;
    const headers = { forwarded: 'for=198.51.100.1;proto=https, for="[2001:db8::7]:4711"', 'x-forwarded-for': '6.6.6.6' };
    expect(await ip(1, '10.0.0.9', headers, rfc)).toBe('2001:db8::7');
    expect(await ip(2, '10.0.0.9', headers, rfc)).toBe('198.51.100.1');
    expect(await ip(1, '10.0.0.9', { forwarded: 'For = 192.0.2.43:8080' }, rfc)).toBe('192.0.2.43');
  });

  it('reads only the configured header: a client-sent Forwarded cannot spoof the address an appending proxy wrote', async () => {
    // nginx appends X-Forwarded-For and passes the client's Forwarded through untouched.
    const spoofed = { forwarded: 'for=6.6.6.6', 'x-forwarded-for': '203.0.113.9' };
    expect(await ip(1, '10.0.0.9', spoofed)).toBe('203.0.113.9');
    // And the other way round, for a proxy that writes Forwarded.
    expect(await ip(1, '10.0.0.9', { forwarded: 'for=203.0.113.9', 'x-forwarded-for': '6.6.6.6' }, { header: 'forwarded' })).toBe('203.0.113.9');
    expect(() => trustProxy(1, { header: 'x-real-ip' as never })).toThrow(TypeError);
  });

  it('stops at an entry that is not an IP address, so garbage never becomes the client address', async () => {
    expect(await ip(2, '10.0.0.9', { 'x-forwarded-for': 'evil, 10.0.0.3' })).toBe('10.0.0.3');
    expect(await ip(1, '10.0.0.9', { forwarded: 'for=unknown' }, { header: 'forwarded' })).toBe('10.0.0.9');
    expect(await ip(['10.0.0.0/8'], '10.0.0.9', { 'x-forwarded-for': '<script>' })).toBe('10.0.0.9');
  });

  it('a predicate decides trust', async () => {
    expect(await ip((a: string) => a.startsWith('10.'), '10.0.0.9', { 'x-forwarded-for': '198.51.100.1' })).toBe('198.51.100.1');
  });

  it('refuses a bad option at construction', () => {
    expect(() => trustProxy(-1)).toThrow(RangeError);
    expect(() => trustProxy(['10.0.0.0/33'])).toThrow(/prefix/);
    expect(() => trustProxy(['not-an-ip'])).toThrow(/not an IP/);
    // The option takes a compiled rule: a bare count (the old form) is refused with a pointer.
    expect(() => new App({ trustProxy: 1 as never })).toThrow(/rove\/trust-proxy/);
  });

  it('parses IPv4, IPv6, compressed and embedded forms, and nothing else', () => {
    expect(parseIp('1.2.3.4')).not.toBeNull();
    expect(parseIp('::')).not.toBeNull();
    expect(parseIp('2001:db8::1')).not.toBeNull();
    expect(parseIp('::ffff:1.2.3.4')).toEqual(parseIp('1.2.3.4'));
    for (const bad of ['1.2.3', '1.2.3.256', '1::2::3', '12345::', 'x', '', '1.2.3.4.5', ':::']) expect(parseIp(bad), bad).toBeNull();
    expect(addressMatcher(['0.0.0.0/0'])('8.8.8.8')).toBe(true);
    expect(addressMatcher(['192.168.1.0/24'])('192.168.2.1')).toBe(false);
  });
});

describe('c.req.ip against a long forwarding chain', () => {
  it('reads the rightmost entries, which trusted proxies wrote, however many a client prepends', async () => {
    const forged = Array.from({ length: 200 }, (_, i) => `6.6.6.${i % 250}`).join(', ');
    expect(await ip(1, '10.0.0.9', { 'x-forwarded-for': `${forged}, 198.51.100.1` })).toBe('198.51.100.1');
    const forwarded = `${forged.replaceAll('6.6', 'for=6.6')}, for=198.51.100.2`;
    expect(await ip(1, '10.0.0.9', { forwarded }, { header: 'forwarded' })).toBe('198.51.100.2');
  });
});

describe('parseIp (property)', () => {
  it('accepts exactly what node:net calls an IP address, on random and near-miss strings', () => {
    const v4 = fc.tuple(fc.nat(300), fc.nat(300), fc.nat(300), fc.nat(300)).map((p) => p.join('.'));
    const v6 = fc
      .array(fc.oneof(fc.string({ unit: fc.constantFrom(...'0123456789abcdefABCDEF'), maxLength: 5 }), fc.constant('')), { minLength: 1, maxLength: 9 })
      .map((g) => g.join(':'));
    const noise = fc.string({ unit: fc.constantFrom('0', '1', 'f', 'g', ':', '.', '2', '5', '%', ' '), maxLength: 20 });
    fc.assert(
      fc.property(
        fc.oneof(
          v4,
          v6,
          noise,
          fc.tuple(v6, v4).map(([a, b]) => `${a}:${b}`),
          v4.map((a) => `0${a}`),
        ),
        (text) => {
          // node:net also accepts zone ids (fe80::1%eth0), which a forwarded header never carries here.
          fc.pre(!text.includes('%'));
          expect(parseIp(text) !== null, text).toBe(isIP(text) !== 0);
        },
      ),
      { numRuns: 5000 },
    );
  });
});

describe('c.req.protocol behind a proxy', () => {
  it('is https when a trusted proxy says X-Forwarded-Proto: https (its own, last, value)', async () => {
    expect((await seen(1, '10.0.0.9', { 'x-forwarded-proto': 'https' })).protocol).toBe('https');
    expect((await seen(['10.0.0.0/8'], '10.0.0.9', { 'x-forwarded-proto': 'http, HTTPS' })).protocol).toBe('https');
    expect((await seen(1, '10.0.0.9', { 'x-forwarded-proto': 'https, http' })).protocol).toBe('http');
  });

  it('reads proto= of the last Forwarded element when Forwarded is chosen', async () => {
    const rfc = { header: 'forwarded' } as const;
    expect((await seen(1, '10.0.0.9', { forwarded: 'for=6.6.6.6;proto=http, for=203.0.113.9;proto=https' }, rfc)).protocol).toBe('https');
    expect((await seen(1, '10.0.0.9', { forwarded: 'for=203.0.113.9', 'x-forwarded-proto': 'https' }, rfc)).protocol).toBe('http');
  });

  it('ignores what an untrusted peer says, and anything but http or https', async () => {
    expect((await seen(undefined, '203.0.113.5', { 'x-forwarded-proto': 'https' })).protocol).toBe('http');
    expect((await seen(['10.0.0.0/8'], '203.0.113.5', { 'x-forwarded-proto': 'https' })).protocol).toBe('http');
    expect((await seen(1, '10.0.0.9', { 'x-forwarded-proto': 'javascript' })).protocol).toBe('http');
    expect((await seen(1, undefined, { 'x-forwarded-proto': 'https' })).protocol).toBe('http');
  });
});
