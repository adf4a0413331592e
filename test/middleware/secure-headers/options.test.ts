import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { App } from '../../../src/index.ts';
import { NONCE, permissionsPolicyHeader, reportingEndpointsHeader, secureHeaders } from '../../../src/middleware/secure-headers/index.ts';
import type { SecureHeadersOptions } from '../../../src/middleware/secure-headers/secure-headers.ts';

const get = (options: SecureHeadersOptions, handler?: ConstructorParameters<typeof Response>) =>
  new App()
    .use(secureHeaders(options))
    .get('/', (c) => (handler ? new Response(...handler) : c.text('ok')))
    .request('/');

describe('secureHeaders() Permissions-Policy', () => {
  it('serialises features to the structured-field syntax', async () => {
    const res = await get({
      permissionsPolicy: {
        camera: [],
        microphone: false,
        fullscreen: ['self'],
        geolocation: ['self', 'https://maps.example'],
        payment: true,
        displayCapture: ['*'],
      },
    });
    expect(res.headers.get('permissions-policy')).toBe(
      'camera=(), microphone=(), fullscreen=self, geolocation=(self "https://maps.example"), payment=*, display-capture=*',
    );
    expect((await get({})).headers.get('permissions-policy')).toBeNull();
  });

  it('refuses a bad feature name or allowlist entry when called', () => {
    expect(() => secureHeaders({ permissionsPolicy: { 'cam era': [] } })).toThrow(TypeError);
    expect(() => secureHeaders({ permissionsPolicy: { camera: ['none'] } })).toThrow(TypeError);
    expect(() => secureHeaders({ permissionsPolicy: { camera: ['https://a.example"), x=*'] } })).toThrow(TypeError);
  });

  it('writes a value that parses back to the same allowlists (property)', () => {
    const origin = fc.stringMatching(/^https?:\/\/[a-z0-9-]{1,12}(\.[a-z]{2,6})?(:[0-9]{1,5})?$/);
    const list = fc.array(fc.oneof(fc.constantFrom('self', 'src'), origin), { maxLength: 4 });
    fc.assert(
      fc.property(fc.dictionary(fc.stringMatching(/^[a-z][a-z0-9-]{0,15}$/), list, { maxKeys: 6 }), (policy) => {
        const header = permissionsPolicyHeader(policy);
        const parsed: Record<string, string[]> = {};
        for (const member of header === '' ? [] : header.split(', ')) {
          const eq = member.indexOf('=');
          const value = member.slice(eq + 1);
          const inner = value.startsWith('(') ? value.slice(1, -1) : value;
          parsed[member.slice(0, eq)] = inner === '' ? [] : inner.split(' ').map((item) => item.replace(/^"|"$/g, ''));
        }
        expect(parsed).toEqual(policy);
      }),
    );
  });
});

describe('secureHeaders() Cross-Origin-Embedder-Policy and Reporting-Endpoints', () => {
  it('sends them when asked, and not by default', async () => {
    const res = await get({ crossOriginEmbedderPolicy: 'require-corp', reportingEndpoints: { default: 'https://r.example/reports', csp: '/csp-reports' } });
    expect(res.headers.get('cross-origin-embedder-policy')).toBe('require-corp');
    expect(res.headers.get('reporting-endpoints')).toBe('default="https://r.example/reports", csp="/csp-reports"');
    const plain = await get({});
    expect(plain.headers.get('cross-origin-embedder-policy')).toBeNull();
    expect(plain.headers.get('reporting-endpoints')).toBeNull();
  });

  it('refuses an endpoint name that is not a key, or a URL that is not https', () => {
    expect(() => reportingEndpointsHeader({ Default: 'https://r.example' })).toThrow(TypeError);
    expect(() => reportingEndpointsHeader({ default: 'http://r.example' })).toThrow(TypeError);
    expect(() => reportingEndpointsHeader({ default: 'https://r.example/"x' })).toThrow(TypeError);
  });
});

describe('secureHeaders() report-only CSP beside the enforced one', () => {
  it('sends both, with one nonce for both', async () => {
    const app = new App()
      .use(
        secureHeaders({
          contentSecurityPolicy: { defaultSrc: ["'self'"], scriptSrc: ["'self'", NONCE] },
          contentSecurityPolicyReportOnly: { defaultSrc: ["'none'"], scriptSrc: [NONCE], reportTo: ['csp'] },
        }),
      )
      .get('/', (c) => c.text('ok'));
    const res = await app.request('/');
    const enforced = res.headers.get('content-security-policy') ?? '';
    const trial = res.headers.get('content-security-policy-report-only') ?? '';
    const nonce = /'nonce-([^']+)'/.exec(enforced)?.[1];
    expect(nonce).toBeDefined();
    expect(trial).toBe(`default-src 'none'; script-src 'nonce-${nonce}'; report-to csp`);
  });

  it('sends a fixed report-only policy as it is, and refuses it beside reportOnly', async () => {
    const res = await get({ contentSecurityPolicy: "default-src 'self'", contentSecurityPolicyReportOnly: "default-src 'none'" });
    expect(res.headers.get('content-security-policy')).toBe("default-src 'self'");
    expect(res.headers.get('content-security-policy-report-only')).toBe("default-src 'none'");
    expect(() => secureHeaders({ contentSecurityPolicy: "default-src 'self'", reportOnly: true, contentSecurityPolicyReportOnly: 'x' })).toThrow(TypeError);
  });
});

describe('secureHeaders() and X-Powered-By', () => {
  it('removes it whether the response or c.header() set it, even on an immutable response', async () => {
    expect((await get({}, ['x', { headers: { 'x-powered-by': 'PHP/5' } }])).headers.get('x-powered-by')).toBeNull();
    const viaHeader = await new App()
      .use(secureHeaders())
      .get('/', (c) => {
        c.header('x-powered-by', 'Express');
        return new Response('x');
      })
      .request('/');
    expect(viaHeader.headers.get('x-powered-by')).toBeNull();
    const immutable = await new App()
      .use(secureHeaders())
      .get('/', async () => {
        const upstream = new Response('x', { headers: { 'x-powered-by': 'PHP/5', 'x-other': '1' } });
        Object.freeze(upstream.headers);
        return fetchLike(upstream);
      })
      .request('/');
    expect(immutable.headers.get('x-powered-by')).toBeNull();
    expect(immutable.headers.get('x-other')).toBe('1');
  });

  it('keeps it with removePoweredBy: false', async () => {
    expect((await get({ removePoweredBy: false }, ['x', { headers: { 'x-powered-by': 'PHP/5' } }])).headers.get('x-powered-by')).toBe('PHP/5');
  });
});

/** A response whose headers throw on change, as fetch()'s do. */
function fetchLike(res: Response): Response {
  const headers = res.headers;
  const guarded = new Proxy(headers, {
    get(target, key) {
      if (key === 'delete' || key === 'set' || key === 'append')
        return () => {
          throw new TypeError('immutable');
        };
      const value = Reflect.get(target, key, target);
      return typeof value === 'function' ? value.bind(target) : value;
    },
  });
  Object.defineProperty(res, 'headers', { value: guarded });
  return res;
}
