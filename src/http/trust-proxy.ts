// rove/trust-proxy: who the client is, and which protocol it used, when proxies stand in front
// of the app. Apart from the core so that an app which trusts no proxy bundles none of this.
import type { ProxyRule } from '../core/app-types.ts';

/**
 * Which proxies may tell the app who the client is:
 * a hop count, a list of addresses and CIDR ranges, or a predicate.
 */
export type TrustProxy = number | readonly string[] | ((address: string) => boolean);

const MAX_FORWARDED = 64;

/** Which header the trusted proxies write. */
export interface TrustProxyOptions {
  /**
   * `'x-forwarded-for'` (the default, with `X-Forwarded-Proto`): what nginx, most load balancers
   * and CDNs append. `'forwarded'`: RFC 7239's `Forwarded` (`for=` and `proto=`), for proxies
   * configured to write it. Only the chosen header is read, whatever the client sent: a proxy
   * that appends one header passes the other through from the client untouched.
   */
  header?: 'x-forwarded-for' | 'forwarded';
}

/**
 * The rule for `new App({ trustProxy })`: starting from the socket's peer, walk leftwards
 * through the forwarded addresses while the current address is a trusted proxy; the first
 * untrusted one is the client (`c.req.ip`). When the peer is trusted, its forwarded protocol
 * is the request's (`c.req.protocol`: a TLS-terminating proxy makes `https` count). The rule is
 * compiled here, once; a bad count, address or prefix throws.
 *
 * @example
 * import { trustProxy } from 'rove/trust-proxy';
 * new App({ trustProxy: trustProxy(1) });                       // one proxy, whatever its address
 * new App({ trustProxy: trustProxy(['10.0.0.0/8', '::1']) });   // these addresses or ranges
 * new App({ trustProxy: trustProxy((a) => a.startsWith('10.')) });
 * new App({ trustProxy: trustProxy(1, { header: 'forwarded' }) }); // a proxy that writes RFC 7239
 */
export function trustProxy(trust: TrustProxy, options: TrustProxyOptions = {}): ProxyRule {
  const header = options.header ?? 'x-forwarded-for';
  if (header !== 'x-forwarded-for' && header !== 'forwarded') throw new TypeError("trustProxy: header is 'x-forwarded-for' or 'forwarded'");
  const rfc7239 = header === 'forwarded';
  if (typeof trust === 'number' && (!Number.isInteger(trust) || trust < 0)) throw new RangeError('trustProxy needs a whole number of hops');
  const trusted: (address: string, hop: number) => boolean =
    typeof trust === 'number' ? (_address, hop) => hop < trust : typeof trust === 'function' ? (address) => trust(address) : addressMatcher(trust);
  return {
    clientIp: (socket, request) => walk(socket, request, trusted, rfc7239),
    protocol: (socket, request) => (socket !== undefined && trusted(socket, 0) ? forwardedProto(request.headers, rfc7239) : undefined),
  };
}

/**
 * Walk from the socket leftwards through the forwarded addresses while the
 * current one is trusted; the first untrusted address is the client. A
 * forwarded entry that is not an IP address stops the walk where it is.
 */
function walk(
  socket: string | undefined,
  request: { readonly headers: Headers },
  trusted: (address: string, hop: number) => boolean,
  rfc7239: boolean,
): string | undefined {
  if (socket === undefined) return undefined;
  let current = socket;
  let chain: string[] | undefined;
  for (let hop = 0; trusted(current, hop); hop++) {
    // Headers are read only when the socket's peer is trusted (a lazy Headers object stays unbuilt otherwise).
    chain ??= rfc7239 ? forwardedFor(request.headers) : xForwardedFor(request.headers);
    const next = chain.pop();
    if (next === undefined || parseIp(next) === null) return current;
    current = next;
  }
  return current;
}

/** The `for=` addresses of `Forwarded` (RFC 7239), left to right: the rightmost ones, which trusted proxies wrote. */
function forwardedFor(headers: Headers): string[] {
  const forwarded = headers.get('forwarded');
  if (forwarded === null) return [];
  return forwarded
    .split(',')
    .slice(-MAX_FORWARDED)
    .map((element) => {
      const value = param(element, 'for');
      return value === undefined ? '' : stripPort(value);
    });
}

/** The addresses of `X-Forwarded-For`, left to right: the rightmost ones, which trusted proxies appended. */
function xForwardedFor(headers: Headers): string[] {
  const xff = headers.get('x-forwarded-for');
  if (xff === null) return [];
  return xff
    .split(',')
    .slice(-MAX_FORWARDED)
    .map((entry) => stripPort(entry.trim()));
}

/**
 * The protocol the trusted proxy next to the server says the request came in with: the last
 * element of `Forwarded` (the one that proxy wrote), or the last value of `X-Forwarded-Proto`.
 * Anything but http or https is ignored.
 */
function forwardedProto(headers: Headers, rfc7239: boolean): 'http' | 'https' | undefined {
  let value: string | undefined;
  if (rfc7239) {
    const forwarded = headers.get('forwarded');
    if (forwarded !== null) value = param(forwarded.slice(forwarded.lastIndexOf(',') + 1), 'proto');
  } else {
    const xfp = headers.get('x-forwarded-proto');
    if (xfp !== null) value = xfp.slice(xfp.lastIndexOf(',') + 1).trim();
  }
  const proto = value?.toLowerCase();
  return proto === 'https' || proto === 'http' ? proto : undefined;
}

/** One parameter of a `Forwarded` element (`for=`, `proto=`), unquoted. */
function param(element: string, name: string): string | undefined {
  for (const pair of element.split(';')) {
    const eq = pair.indexOf('=');
    if (eq !== -1 && pair.slice(0, eq).trim().toLowerCase() === name)
      return pair
        .slice(eq + 1)
        .trim()
        .replace(/^"|"$/g, '');
  }
  return undefined;
}

/** `[v6]:port` → `v6`, `v4:port` → `v4`; a bare IPv6 address stays as it is. */
function stripPort(text: string): string {
  if (text.startsWith('[')) {
    const end = text.indexOf(']');
    return end === -1 ? text : text.slice(1, end);
  }
  const colon = text.indexOf(':');
  return colon !== -1 && colon === text.lastIndexOf(':') ? text.slice(0, colon) : text;
}

/** An address as 16 bytes (IPv4 as its IPv4-mapped IPv6 form), or null when it is not an IP address. */
export function parseIp(text: string): Uint8Array | null {
  if (text.includes(':')) return parseIpv6(text);
  const v4 = parseIpv4(text);
  if (v4 === null) return null;
  const out = new Uint8Array(16);
  out[10] = out[11] = 0xff;
  out.set(v4, 12);
  return out;
}

function parseIpv4(text: string): number[] | null {
  const parts = text.split('.');
  if (parts.length !== 4) return null;
  const out: number[] = [];
  for (const p of parts) {
    // No leading zeros: some parsers read them as octal.
    if (!/^(?:0|[1-9]\d{0,2})$/.test(p) || Number(p) > 255) return null;
    out.push(Number(p));
  }
  return out;
}

function parseIpv6(text: string): Uint8Array | null {
  const zone = text.indexOf('%');
  const body = zone === -1 ? text : text.slice(0, zone);
  const halves = body.split('::');
  if (halves.length > 2) return null;
  const groups = (half: string): number[] | null => {
    if (half === '') return [];
    const out: number[] = [];
    const parts = half.split(':');
    for (let i = 0; i < parts.length; i++) {
      const p = parts[i];
      if (i === parts.length - 1 && p.includes('.')) {
        const v4 = parseIpv4(p);
        if (v4 === null) return null;
        out.push((v4[0] << 8) | v4[1], (v4[2] << 8) | v4[3]);
      } else if (/^[0-9a-f]{1,4}$/i.test(p)) out.push(parseInt(p, 16));
      else return null;
    }
    return out;
  };
  const head = groups(halves[0]);
  const tail = halves.length === 2 ? groups(halves[1]) : [];
  if (head === null || tail === null) return null;
  const missing = 8 - head.length - tail.length;
  if (halves.length === 1 ? missing !== 0 : missing < 1) return null;
  const all = [...head, ...new Array<number>(missing).fill(0), ...tail];
  const out = new Uint8Array(16);
  all.forEach((g, i) => {
    out[i * 2] = g >> 8;
    out[i * 2 + 1] = g & 0xff;
  });
  return out;
}

/** A predicate for a list of addresses and CIDR ranges (`10.0.0.0/8`, `fd00::/8`, `127.0.0.1`). */
export function addressMatcher(list: readonly string[]): (address: string) => boolean {
  const ranges = list.map((entry) => {
    const [addr, bits] = entry.split('/');
    const ip = parseIp(addr);
    if (ip === null) throw new TypeError(`trustProxy: not an IP address or CIDR range: ${entry}`);
    const v4 = !addr.includes(':');
    const prefix = bits === undefined ? 128 : Number(bits) + (v4 ? 96 : 0);
    if (!Number.isInteger(prefix) || prefix < (v4 ? 96 : 0) || prefix > 128) throw new TypeError(`trustProxy: bad prefix length in ${entry}`);
    return { ip, prefix };
  });
  return (address) => {
    const ip = parseIp(address);
    return ip !== null && ranges.some((r) => inRange(ip, r.ip, r.prefix));
  };
}

function inRange(ip: Uint8Array, base: Uint8Array, prefix: number): boolean {
  for (let bit = 0; bit < prefix; bit += 8) {
    const mask = prefix - bit >= 8 ? 0xff : (0xff << (8 - (prefix - bit))) & 0xff;
    if ((ip[bit / 8] & mask) !== (base[bit / 8] & mask)) return false;
  }
  return true;
}
