// rove/csrf: refuse cross-site unsafe requests; session-bound tokens for forms.
export { type CsrfOptions, type CsrfRule, csrf } from './csrf.ts';
export { csrfToken, verifyCsrfToken } from './token.ts';
