// Draws docs/images/trace-timeline.svg from a real trace: two instances of examples/otel on Node
// (a gateway calling a users service) export to a loopback OTLP receiver, and one request's trace
// is rendered as a tracing UI shows it. npm run docs:trace
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { startReceiver } from '../dev/otlp-receiver.ts';
import { type Child, freePort, ROOT, resolveBin, startChild, stopChild } from '../dev/proc.ts';
import { renderTimeline } from '../dev/trace-timeline.ts';

const OUT = join(ROOT, 'docs/images/trace-timeline.svg');

async function serve(name: string, endpoint: string, downstream?: string): Promise<{ child: Child; url: string }> {
  const port = await freePort();
  const env: Record<string, string> = { PORT: String(port), HOST: '127.0.0.1', OTEL_EXPORTER_OTLP_ENDPOINT: endpoint, OTEL_SERVICE_NAME: name };
  if (downstream !== undefined) env.DOWNSTREAM_URL = downstream;
  const child = startChild(resolveBin('node'), ['--conditions=source', '--import', 'tsx', 'examples/otel/node.ts'], env);
  const url = `http://127.0.0.1:${port}`;
  for (let i = 0; ; i++) {
    try {
      if ((await fetch(`${url}/health`)).ok) return { child, url };
    } catch {
      if (i > 300 || child.exited) throw new Error(`${name} did not start:\n${child.output()}`);
      await new Promise((r) => setTimeout(r, 100));
    }
  }
}

const receiver = await startReceiver();
const users = await serve('users', receiver.url);
const gateway = await serve('gateway', receiver.url, `${users.url}/api/users/7`);
try {
  // A first request warms both up (module loading, the first connection): the second is drawn.
  await (await fetch(`${gateway.url}/api/users/7`)).text();
  await (await fetch(`${gateway.url}/api/users/8`)).text();
  const trace = await receiver.until((spans) => {
    const root = spans.find((s) => s.service === 'gateway' && s.attributes['url.path'] === '/api/users/8');
    const all = root && spans.filter((s) => s.traceId === root.traceId);
    // gateway: server, middleware, handler, query, client; users: server, middleware, handler, query.
    return all && all.length >= 9 ? all : undefined;
  });
  writeFileSync(OUT, renderTimeline(trace, 'GET /api/users/8 through two services, as exported over OTLP'));
  console.log(`wrote ${OUT} (${trace.length} spans)`);
} finally {
  await stopChild(gateway.child);
  await stopChild(users.child);
  await receiver.close();
}
