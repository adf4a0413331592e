// Raw Node: node:http writes with drain, and the ws package's own server for /ws.
import { createServer } from 'node:http';
import { WebSocketServer } from 'ws';

const server = createServer((req, res) => {
  if (req.url !== '/sse') return res.end('ok');
  res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
  let n = 0;
  let open = true;
  res.on('close', () => (open = false));
  const pump = () => {
    while (open && res.write(`data: {"n":${n++}}\n\n`));
    if (open) res.once('drain', pump);
  };
  pump();
});
const wss = new WebSocketServer({ server, path: '/ws', perMessageDeflate: false, maxPayload: 65_536 });
wss.on('connection', (ws) => ws.on('message', (data, binary) => ws.send(data, { binary })));
server.listen(Number(process.env.PORT ?? 8000), process.env.HOST ?? '127.0.0.1');
