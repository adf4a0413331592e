// A client that drops the connection without a close frame: every runtime reports close 1006 and no error.
import { describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { CONFORMANCE_RUNTIMES, start } from './servers.ts';

describe.each(CONFORMANCE_RUNTIMES)('a dropped WebSocket on %s', (runtime) => {
  it('is ws:close 1006, not ws:error', async () => {
    const server = await start(runtime, 'test/conformance/realtime-probe');
    try {
      const ws = new WebSocket(`${server.url.replace('http://', 'ws://')}/ws/idle`);
      await new Promise((resolve, reject) => {
        ws.once('open', resolve);
        ws.once('error', reject);
      });
      ws.terminate();
      let events: string[] = [];
      for (let i = 0; i < 50 && !events.some((e) => e.startsWith('close')); i++) {
        await new Promise((r) => setTimeout(r, 50));
        events = (await (await fetch(`${server.url}/events`)).json()) as string[];
      }
      expect(events).toEqual(['open /ws/idle', 'close /ws/idle 1006']);
    } finally {
      await server.stop();
    }
  }, 30_000);
});
