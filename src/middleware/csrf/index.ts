// rove/csrf: refuse cross-site unsafe requests; session-bound tokens for forms.
export type { ConfigError, FromContext } from '../../core/from-context.ts';
export { type CsrfOptions, type CsrfOrigins, type CsrfRule, csrf } from './csrf.ts';
export { csrfToken, verifyCsrfToken } from './token.ts';
