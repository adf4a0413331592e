// Deno (and `deno serve`): requests refused before the app runs, a Host header that could move
// where the path starts in `request.url`, and `OPTIONS *`.
import { ASTERISK, BAD_HOST, invalidHost, refuse } from '../shared/request-check.ts';
import { denoHeader } from './header.ts';

/**
 * Deno (and `deno serve`): the 400 answer for a request the app must not see,
 * or undefined. Deno builds `request.url` from the Host as sent, so the Host
 * must be read: through Deno's one-header lookup where there is one (`denoHeader`),
 * since the first `headers` access builds them all (cost in docs/design-notes.md).
 *
 * @example
 * Deno.serve((request, info) => checkDenoRequest(request) ?? app.handle(request, env, ctx, info));
 */
export function checkDenoRequest(request: Request): Response | undefined {
  const host = denoHeader(request, 'host');
  if (host !== null && invalidHost(host)) return refuse(BAD_HOST);
  // Deno turns the target `*` into the path `/*`; only OPTIONS takes that form.
  if (request.method === 'OPTIONS' && isAsterisk(request.url)) return refuse(ASTERISK);
  return undefined;
}

function isAsterisk(url: string): boolean {
  if (!url.endsWith('/*')) return false;
  const pathStart = url.indexOf('/', url.indexOf('//') + 2);
  return pathStart === url.length - 2;
}
