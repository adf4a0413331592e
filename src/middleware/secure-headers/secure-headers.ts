/**
 * rove/secure-headers: safe default response headers, and a
 * Content-Security-Policy with a fresh nonce per response for inline scripts.
 */
import type { Handler } from '../../core/compose.ts';
import type { Context } from '../../core/context.ts';
import { named } from '../../core/named.ts';
import { checkHeader } from '../../http/headers.ts';
import { type CspDirectives, compileCsp } from './csp.ts';
import { type PermissionsPolicy, permissionsPolicyHeader, reportingEndpointsHeader } from './structured.ts';

export interface SecureHeadersOptions {
  /** CSP directives (`{ defaultSrc: ["'self'"], scriptSrc: ["'self'", NONCE] }`), a ready header value, or false (default: none). */
  contentSecurityPolicy?: CspDirectives | string | false;
  /** Send the CSP as Content-Security-Policy-Report-Only instead. */
  reportOnly?: boolean;
  /**
   * A second policy, sent as Content-Security-Policy-Report-Only beside the enforced one: try a
   * stricter policy while the current one keeps protecting. Same forms as `contentSecurityPolicy`;
   * a nonce in both is the same nonce.
   */
  contentSecurityPolicyReportOnly?: CspDirectives | string | false;
  /** Permissions-Policy: feature → allowlist (`{ camera: [], geolocation: ['self', 'https://maps.example'] }`). Default none. */
  permissionsPolicy?: PermissionsPolicy | false;
  /** Cross-Origin-Embedder-Policy (`require-corp` or `credentialless`, for cross-origin isolation). Default none: it blocks cross-origin resources that do not opt in. */
  crossOriginEmbedderPolicy?: 'require-corp' | 'credentialless' | 'unsafe-none' | false;
  /** Reporting-Endpoints: name → URL (`{ default: 'https://r.example/reports' }`), for `report-to` in a CSP. Default none. */
  reportingEndpoints?: Record<string, string> | false;
  /** Delete `X-Powered-By` from the response, whoever set it. Default true. */
  removePoweredBy?: boolean;
  /** Strict-Transport-Security on https requests. Default `max-age=31536000; includeSubDomains`; false for none. */
  strictTransportSecurity?: string | false;
  /** Default `DENY`; `SAMEORIGIN`, or false for none. */
  xFrameOptions?: 'DENY' | 'SAMEORIGIN' | false;
  /** Default `strict-origin-when-cross-origin`. */
  referrerPolicy?: string | false;
  /** Default `same-origin`. */
  crossOriginOpenerPolicy?: string | false;
  /** Default `same-origin`. */
  crossOriginResourcePolicy?: string | false;
  /** Default `nosniff`; false for none. */
  xContentTypeOptions?: 'nosniff' | false;
  /** Anything else to send, as is. */
  headers?: Record<string, string>;
}

const NONCE_KEY = 'cspNonce';

/**
 * The response's CSP nonce (16 random bytes, base64), made on first use and
 * the same for the rest of the request. Views put it on inline scripts:
 * `<script nonce="{{nonce}}">`. Also readable as `c.get('cspNonce')` once made.
 *
 * @example
 * app.get('/', (c) => c.html(`<script nonce="${cspNonce(c)}">go()</script>`));
 */
export function cspNonce(c: Context<any, any>): string {
  const vars = c.var as Record<string, unknown>;
  let nonce = vars[NONCE_KEY] as string | undefined;
  if (nonce === undefined) {
    const bytes = crypto.getRandomValues(new Uint8Array(16));
    nonce = btoa(String.fromCharCode(...bytes));
    (c as Context<any, any>).set(NONCE_KEY, nonce);
  }
  return nonce;
}

/**
 * Set security headers on every response it covers (handlers can still set
 * their own, which win).
 *
 * @example
 * import { NONCE, secureHeaders } from 'rove/secure-headers';
 * app.use(secureHeaders({ contentSecurityPolicy: { defaultSrc: ["'self'"], scriptSrc: [NONCE], frameAncestors: ["'none'"] } }));
 */
export function secureHeaders(options: SecureHeadersOptions = {}): Handler {
  const fixed: [string, string][] = [];
  const add = (name: string, value: string | false | undefined, fallback: string) => {
    if (value !== false) fixed.push([name, value ?? fallback]);
  };
  add('x-content-type-options', options.xContentTypeOptions, 'nosniff');
  add('referrer-policy', options.referrerPolicy, 'strict-origin-when-cross-origin');
  add('x-frame-options', options.xFrameOptions, 'DENY');
  add('cross-origin-opener-policy', options.crossOriginOpenerPolicy, 'same-origin');
  add('cross-origin-resource-policy', options.crossOriginResourcePolicy, 'same-origin');
  fixed.push(['x-dns-prefetch-control', 'off'], ['x-permitted-cross-domain-policies', 'none'], ['origin-agent-cluster', '?1']);
  if (options.crossOriginEmbedderPolicy) fixed.push(['cross-origin-embedder-policy', options.crossOriginEmbedderPolicy]);
  if (options.permissionsPolicy) fixed.push(['permissions-policy', permissionsPolicyHeader(options.permissionsPolicy)]);
  if (options.reportingEndpoints) fixed.push(['reporting-endpoints', reportingEndpointsHeader(options.reportingEndpoints)]);
  for (const [k, v] of Object.entries(options.headers ?? {})) fixed.push([k.toLowerCase(), v]);
  const hsts = options.strictTransportSecurity === false ? undefined : (options.strictTransportSecurity ?? 'max-age=31536000; includeSubDomains');
  const REPORT_ONLY = 'content-security-policy-report-only';
  const policies: [string, Csp][] = [];
  const enforced = csp(options.contentSecurityPolicy);
  if (enforced !== undefined) policies.push([options.reportOnly ? REPORT_ONLY : 'content-security-policy', enforced]);
  const trial = csp(options.contentSecurityPolicyReportOnly);
  if (trial !== undefined) {
    if (options.reportOnly && enforced !== undefined) throw new TypeError('secureHeaders: reportOnly already sends contentSecurityPolicy as report-only');
    policies.push([REPORT_ONLY, trial]);
  }
  // A policy without a nonce is the same on every response: it joins the fixed headers.
  for (const [name, p] of policies) if (!p.usesNonce) fixed.push([name, p.build(undefined)]);
  const nonced = policies.filter(([, p]) => p.usesNonce);
  // Every name and value is checked here, once, as c.header() would check it on each request;
  // a nonce policy is checked with a stand-in nonce (a real one is base64, which is always sendable).
  for (const [name, value] of fixed) checkHeader(name, value);
  if (hsts !== undefined) checkHeader('strict-transport-security', hsts);
  for (const [name, p] of nonced) checkHeader(name, p.build('AAAA'));
  const onHttps: [string, string][] = hsts === undefined ? fixed : [...fixed, ['strict-transport-security', hsts]];
  const removePoweredBy = options.removePoweredBy !== false;

  const layer: Handler = async (c, next) => {
    const pairs = c.req.protocol === 'https' ? onHttps : fixed;
    for (let i = 0; i < pairs.length; i++) c.header(pairs[i][0], pairs[i][1]);
    for (const [name, p] of nonced) c.header(name, p.build(cspNonce(c)));
    await next();
    if (!removePoweredBy) return;
    // Set through c.header(): still pending, added to the response after the chain.
    c.header('x-powered-by', undefined);
    if (c.res.headers.has('x-powered-by')) c.res = withoutPoweredBy(c.res);
  };
  return named('secureHeaders', layer);
}

type Csp = ReturnType<typeof compileCsp>;

/** A policy option compiled: directives, a ready value, or nothing. */
function csp(policy: CspDirectives | string | false | undefined): Csp | undefined {
  if (policy === undefined || policy === false) return undefined;
  if (typeof policy !== 'string') return compileCsp(policy);
  if (/[\r\n]/.test(policy)) throw new TypeError('secureHeaders: CR or LF in the Content-Security-Policy');
  return { usesNonce: false, build: () => policy };
}

/** The response without X-Powered-By, copied first when its headers are immutable (a fetch() response). */
function withoutPoweredBy(res: Response): Response {
  try {
    res.headers.delete('x-powered-by');
    return res;
  } catch {
    const copy = new Response(res.body, res);
    copy.headers.delete('x-powered-by');
    return copy;
  }
}
