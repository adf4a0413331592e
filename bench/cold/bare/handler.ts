// The two routes with no framework, as a fetch handler: Deno, Bun, deno serve and Workers.
const json = (value: unknown, status = 200) => Response.json(value, { status });

export function handle(req: Request): Response {
  const path = new URL(req.url).pathname;
  if (req.method === 'GET') {
    if (path === '/') return json({ hello: 'world' });
    if (path.startsWith('/users/') && path.indexOf('/', 7) < 0) return json({ id: decodeURIComponent(path.slice(7)) });
  }
  return new Response('Not Found', { status: 404 });
}
