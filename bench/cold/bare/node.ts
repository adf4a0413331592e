// The two routes on bare node:http: no Request/Response objects.
import { createServer } from 'node:http';

const send = (res: import('node:http').ServerResponse, status: number, body: string, type: string) => {
  res.writeHead(status, { 'content-type': type, 'content-length': Buffer.byteLength(body) });
  res.end(body);
};

createServer((req, res) => {
  const url = req.url ?? '/';
  const q = url.indexOf('?');
  const path = q < 0 ? url : url.slice(0, q);
  if (req.method === 'GET') {
    if (path === '/') return send(res, 200, JSON.stringify({ hello: 'world' }), 'application/json');
    if (path.startsWith('/users/') && path.indexOf('/', 7) < 0)
      return send(res, 200, JSON.stringify({ id: decodeURIComponent(path.slice(7)) }), 'application/json');
  }
  send(res, 404, 'Not Found', 'text/plain; charset=utf-8');
}).listen(Number(process.env.PORT ?? 8000), process.env.HOST ?? '127.0.0.1');
