/**
 * The HTTP side of bench/response-build-micro.ts --http: `GET /<case>/<n>` answers with one response built
 * that way (cases.ts), so a load test sees what the runtime's server does with it as well as its construction.
 * One default export for `deno serve`, Bun (an entry's default export is served) and workerd.
 */
import { CASES, COOKIE_CASES } from './cases.ts';

const port = Number((globalThis as { process?: { env: Record<string, string | undefined> } }).process?.env.PORT ?? 8000);

export default {
  port,
  fetch(request: Request): Response {
    const path = request.url.slice(request.url.indexOf('/', 8) + 1);
    const [name, n] = path.split('/');
    const cookie = COOKIE_CASES[name];
    if (cookie !== undefined) return cookie();
    const build = CASES[name];
    return build === undefined ? new Response('no such case', { status: 404 }) : build(Number(n));
  },
};
