// Bun: requests refused before the app runs, a Host header Bun could not read into `request.url`.
import { BAD_HOST, NO_HOST, refuse } from '../shared/request-check.ts';

/**
 * Bun: the 400 answer for a request the app must not see, or undefined.
 * Bun makes `request.url` relative (`/path`) exactly when the Host is missing
 * or is not a valid URL host (every Host `invalidHost` refuses, and `" < ^ { | \``),
 * so the URL's first character tells, without building the request's Headers
 * (a cost docs/design-notes.md gives). Bun answers `OPTIONS *` 400 itself.
 */
export function checkBunRequest(request: Request): Response | undefined {
  if (request.url.charCodeAt(0) !== 0x2f) return undefined;
  return refuse(request.headers.get('host') === null ? NO_HOST : BAD_HOST);
}
