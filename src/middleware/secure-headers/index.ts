// rove/secure-headers: safe default response headers, and a Content-Security-Policy with a nonce.
export { type CspDirectives, type CspSource, compileCsp, NONCE } from './csp.ts';
export { cspNonce, type SecureHeadersOptions, secureHeaders } from './secure-headers.ts';
export { type PermissionsAllowlist, type PermissionsPolicy, permissionsPolicyHeader, reportingEndpointsHeader } from './structured.ts';
