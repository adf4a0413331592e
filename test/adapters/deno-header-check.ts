// Run by deno (test/adapters/deno-header.test.ts): serves one request and prints what the
// Deno adapters' one-header lookup found on it.
import { denoHeader, usesInnerLookup } from '../../adapters/deno/header.ts';

const server = Deno.serve({ port: 0, hostname: '127.0.0.1', onListen() {} }, (request) => {
  const inner = usesInnerLookup(request);
  const answers = [denoHeader(request, 'x-one'), denoHeader(request, 'X-Two'), denoHeader(request, 'absent')];
  return Response.json({ inner, answers, built: request.headers.get('x-two') });
});
const res = await fetch(`http://127.0.0.1:${server.addr.port}/`, {
  headers: [
    ['x-one', '1'],
    ['x-two', 'a'],
    ['x-two', 'b'],
  ],
});
console.log(JSON.stringify(await res.json()));
await server.shutdown();
