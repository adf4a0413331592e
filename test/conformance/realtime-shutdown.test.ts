// Graceful shutdown closes open WebSockets with 1001, on the runtimes whose adapters own the server.
import { describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { SERVING_RUNTIMES, start } from './servers.ts';

describe.each(SERVING_RUNTIMES)('WebSockets at shutdown on %s', (runtime) => {
  it('SIGTERM closes an open socket with 1001, then the server exits 0', async () => {
    const server = await start(runtime, 'examples/realtime');
    try {
      const ws = new WebSocket(`${server.url.replace('http://', 'ws://')}/ws`);
      await new Promise((resolve, reject) => {
        ws.once('open', resolve);
        ws.once('error', reject);
      });
      const closed = new Promise<number>((resolve) => ws.once('close', (code) => resolve(code)));
      process.kill(server.child.pid, 'SIGTERM');
      expect(await closed).toBe(1001);
      await Promise.race([server.child.done, new Promise((r) => setTimeout(r, 10_000))]);
      expect(server.child.exited).toBe(true);
      expect(server.child.exitCode).toBe(0);
    } finally {
      await server.stop();
    }
  }, 30_000);
});
