/**
 * The workerd side of bench/response-build-micro.ts: `GET /?case=record&n=3&iter=20000` builds that many
 * responses and answers with a checksum. Clocks stand still inside a Worker request, so the runner
 * times each request from outside and subtracts an `iter=0` request.
 */
import { allCases, loop } from './cases.ts';

const byKey = new Map(allCases().map(([name, n, build]) => [`${name}/${n}`, build]));

export default {
  fetch(request: Request): Response {
    const q = new URL(request.url).searchParams;
    const iterations = Number(q.get('iter') ?? 0);
    const build = byKey.get(`${q.get('case')}/${q.get('n')}`);
    if (build === undefined) return new Response(iterations === 0 ? '0' : 'no such case', { status: iterations === 0 ? 200 : 404 });
    return new Response(String(loop(build, iterations)));
  },
};
