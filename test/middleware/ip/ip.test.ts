import { describe, expect, it } from 'vitest';
import { trustProxy } from '../../../src/http/trust-proxy.ts';
import { App } from '../../../src/index.ts';
import { ipRestriction } from '../../../src/middleware/ip/index.ts';

/** An app bound like an adapter would, so each request carries a peer address. */
function makeApp(options: Parameters<typeof ipRestriction>[0], proxies?: string[]) {
  const app = new App({ trustProxy: proxies === undefined ? undefined : trustProxy(proxies) });
  const handle = app.bind({ address: (_request, info) => info as string | undefined });
  app.use('/admin', ipRestriction(options));
  app.get('/admin', (c) => c.text(`hello ${c.req.ip}`));
  app.get('/public', (c) => c.text('public'));
  return (path: string, ip: string | undefined, headers: Record<string, string> = {}) =>
    handle(new Request(`http://localhost${path}`, { headers }), undefined, undefined, ip) as Promise<Response>;
}

async function refused(res: Response): Promise<string> {
  expect(res.status).toBe(403);
  expect(res.headers.get('content-type')).toBe('application/problem+json');
  return ((await res.json()) as { detail: string }).detail;
}

describe('ipRestriction', () => {
  it('lets listed addresses and ranges in, refuses the rest', async () => {
    const get = makeApp({ allow: ['10.0.0.0/8', '127.0.0.1', '::1', 'fd00::/8'] });
    for (const ip of ['10.1.2.3', '127.0.0.1', '::1', '::ffff:10.0.0.1', 'fd12::1']) expect((await get('/admin', ip)).status, ip).toBe(200);
    for (const ip of ['11.0.0.1', '127.0.0.2', '::2', 'fe80::1', '::ffff:11.0.0.1'])
      expect(await refused(await get('/admin', ip))).toBe(`IP: ${ip} is not allowed`);
  });

  it('checks deny before allow', async () => {
    const get = makeApp({ allow: ['10.0.0.0/8'], deny: ['10.0.0.66'] });
    expect((await get('/admin', '10.0.0.65')).status).toBe(200);
    await refused(await get('/admin', '10.0.0.66'));
    const denyOnly = makeApp({ deny: ['192.0.2.0/24'] });
    expect((await denyOnly('/admin', '198.51.100.1')).status).toBe(200);
    await refused(await denyOnly('/admin', '192.0.2.9'));
  });

  it('refuses a request whose address is unknown', async () => {
    const get = makeApp({ deny: ['10.0.0.0/8'] });
    expect(await refused(await get('/admin', undefined))).toBe('IP: the client address is unknown');
  });

  it('ignores a forged X-Forwarded-For unless the proxy is trusted', async () => {
    const direct = makeApp({ allow: ['10.0.0.1'] });
    await refused(await direct('/admin', '203.0.113.5', { 'x-forwarded-for': '10.0.0.1' }));
    const proxied = makeApp({ allow: ['10.0.0.1'] }, ['192.0.2.1']);
    expect((await proxied('/admin', '192.0.2.1', { 'x-forwarded-for': '10.0.0.1' })).status).toBe(200);
    // A client prepending an allowed address does not pass: the proxy's own entry (rightmost) counts.
    await refused(await proxied('/admin', '192.0.2.1', { 'x-forwarded-for': '10.0.0.1, 203.0.113.5' }));
  });

  it('leaves other paths alone, and emits ip:rejected', async () => {
    const app = new App();
    const handle = app.bind({ address: (_r, info) => info as string });
    app.use('/admin', ipRestriction({ allow: ['10.0.0.1'] }));
    app.get('/admin', (c) => c.text('admin'));
    app.get('/public', (c) => c.text('public'));
    const seen: unknown[] = [];
    app.on('ip:rejected', (e) => void seen.push(e.metadata));
    expect((await handle(new Request('http://localhost/public'), undefined, undefined, '1.2.3.4')).status).toBe(200);
    expect((await handle(new Request('http://localhost/admin'), undefined, undefined, '1.2.3.4')).status).toBe(403);
    expect(seen).toEqual([{ rule: 'allow', ip: '1.2.3.4', method: 'GET', path: '/admin' }]);
  });

  it('refuses bad lists when registered', () => {
    expect(() => ipRestriction({})).toThrow(/needs allow/);
    expect(() => ipRestriction({ allow: ['10.0.0.0/33'] })).toThrow(/ipRestriction\(\)/);
    expect(() => ipRestriction({ deny: ['not-an-ip'] })).toThrow(/ipRestriction\(\)/);
    expect(() => ipRestriction({ allow: ['010.0.0.1'] })).toThrow(/ipRestriction\(\)/);
  });
});
