// A TLS-terminating proxy that the app trusts makes a request count as https for the session
// cookie's Secure flag and for HSTS; the same headers from an untrusted peer change nothing.
import { describe, expect, it } from 'vitest';
import { trustProxy } from '../../src/http/trust-proxy.ts';
import { App } from '../../src/index.ts';
import { secureHeaders } from '../../src/middleware/secure-headers/index.ts';
import { getSession, session } from '../../src/middleware/session/index.ts';

const KEY = 'proxy-https-test-secret-0123456789abcdef';

function served(peer: string) {
  const app = new App({ trustProxy: trustProxy(['10.0.0.0/8']) });
  app.use(secureHeaders());
  app.use(session({ keys: [KEY] }));
  app.get('/', async (c) => {
    await getSession(c).set('n', 1);
    return c.text('ok');
  });
  const handle = app.bind({ address: () => peer });
  return (headers: Record<string, string>) => handle(new Request('http://app.example/', { headers }), {}, undefined) as Promise<Response>;
}

describe('https behind a trusted proxy', () => {
  it('sets Secure on the session cookie and sends HSTS when the trusted proxy says https', async () => {
    const res = await served('10.0.0.2')({ 'x-forwarded-proto': 'https' });
    expect(res.headers.getSetCookie()[0]).toMatch(/; Secure/i);
    expect(res.headers.get('strict-transport-security')).toMatch(/^max-age=/);
  });

  it('ignores X-Forwarded-Proto from a peer it does not trust', async () => {
    const res = await served('203.0.113.5')({ 'x-forwarded-proto': 'https' });
    expect(res.headers.getSetCookie()[0]).not.toMatch(/; Secure/i);
    expect(res.headers.get('strict-transport-security')).toBeNull();
  });

  it('leaves a plain http request from the proxy as http', async () => {
    const res = await served('10.0.0.2')({});
    expect(res.headers.getSetCookie()[0]).not.toMatch(/; Secure/i);
    expect(res.headers.get('strict-transport-security')).toBeNull();
  });
});
