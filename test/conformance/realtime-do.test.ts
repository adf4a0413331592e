// examples/realtime-do on workerd, with a Durable Object namespace: two clients of one room both
// get every message; another room hears nothing; a foreign origin is refused before the object.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { type Child, freePort, ROOT, resolveBin, startChild, stopChild } from '../../dev/proc.ts';
import { bundleWorker } from '../../dev/workerd.ts';

function config(port: number): string {
  return `using Workerd = import "/workerd/workerd.capnp";

const config :Workerd.Config = (
  services = [ (name = "main", worker = .mainWorker) ],
  sockets = [ (name = "http", address = "127.0.0.1:${port}", http = (), service = "main") ],
);

const mainWorker :Workerd.Worker = (
  modules = [ (name = "worker.js", esModule = embed "worker.js") ],
  compatibilityDate = "2025-01-01",
  durableObjectNamespaces = [ (className = "Room", uniqueKey = "rove-realtime-do-room") ],
  durableObjectStorage = (inMemory = void),
  bindings = [ (name = "ROOMS", durableObjectNamespace = "Room") ],
);
`;
}

function open(url: string, headers: Record<string, string> = {}): Promise<{ ws: WebSocket; messages: string[] }> {
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(url, { headers });
    const messages: string[] = [];
    ws.on('message', (d) => messages.push(d.toString()));
    ws.once('open', () => resolve({ ws, messages }));
    ws.once('unexpected-response', (_req, res) => reject(Object.assign(new Error(`refused ${res.statusCode}`), { status: res.statusCode })));
    ws.once('error', reject);
  });
}

const until = async (check: () => boolean) => {
  for (let i = 0; i < 100 && !check(); i++) await new Promise((r) => setTimeout(r, 20));
};

describe('examples/realtime-do on workerd', () => {
  let child: Child;
  let scratch: string;
  let base: string;
  beforeAll(async () => {
    const dir = join(tmpdir(), 'rove-conformance');
    mkdirSync(dir, { recursive: true });
    scratch = mkdtempSync(join(dir, 'realtime-do-'));
    const port = await freePort();
    bundleWorker(join(ROOT, 'examples/realtime-do/worker.ts'), join(scratch, 'worker.js'));
    writeFileSync(join(scratch, 'config.capnp'), config(port));
    child = startChild(resolveBin('workerd'), ['serve', join(scratch, 'config.capnp')], { NO_COLOR: '1' });
    base = `127.0.0.1:${port}`;
    for (let i = 0; i < 300; i++) {
      if (child.exited) throw new Error(`workerd exited:\n${child.output()}`);
      try {
        if ((await fetch(`http://${base}/`)).ok) return;
      } catch {
        // not yet
      }
      await new Promise((r) => setTimeout(r, 100));
    }
    throw new Error(`workerd not ready:\n${child.output()}`);
  }, 60_000);
  afterAll(async () => {
    if (child) await stopChild(child);
    if (scratch) rmSync(scratch, { recursive: true, force: true });
  });

  it('fans a message out to every client of the room, and only that room', async () => {
    const a = await open(`ws://${base}/room/lobby`);
    const b = await open(`ws://${base}/room/lobby`);
    const other = await open(`ws://${base}/room/elsewhere`);
    a.ws.send('hello room');
    await until(() => a.messages.length > 0 && b.messages.length > 0);
    expect(a.messages).toEqual(['hello room']);
    expect(b.messages).toEqual(['hello room']);
    await new Promise((r) => setTimeout(r, 100));
    expect(other.messages).toEqual([]);
    for (const c of [a, b, other]) c.ws.close();
  });

  it('refuses a foreign origin (403), a plain request (426) and a bad room name (400) before the object', async () => {
    await expect(open(`ws://${base}/room/lobby`, { origin: 'https://evil.example' })).rejects.toMatchObject({ status: 403 });
    expect((await fetch(`http://${base}/room/lobby`)).status).toBe(426);
    await expect(open(`ws://${base}/room/${'x'.repeat(65)}`)).rejects.toMatchObject({ status: 400 });
  });
});
