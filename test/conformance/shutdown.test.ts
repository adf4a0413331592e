// Graceful shutdown and client disconnects, on the runtimes whose adapters own the server.
import { describe, expect, it } from 'vitest';
import { SERVING_RUNTIMES, start } from './servers.ts';

describe.each(SERVING_RUNTIMES)('adapter on %s', (runtime) => {
  it('SIGTERM lets an in-flight response finish, then exits 0', async () => {
    const server = await start(runtime);
    try {
      const res = await fetch(`${server.url}/stream`);
      const reader = res.body!.getReader();
      const decoder = new TextDecoder();
      let text = decoder.decode((await reader.read()).value, { stream: true });
      process.kill(server.child.pid, 'SIGTERM');
      for (;;) {
        const { done, value } = await reader.read();
        if (done) break;
        text += decoder.decode(value, { stream: true });
      }
      expect(text).toBe('chunk 1\nchunk 2\nchunk 3\nchunk 4\nchunk 5\n');
      await Promise.race([server.child.done, new Promise((r) => setTimeout(r, 10_000))]);
      expect(server.child.exited).toBe(true);
      expect(server.child.exitCode).toBe(0);
      await expect(fetch(`${server.url}/`)).rejects.toThrow();
    } finally {
      await server.stop();
    }
  }, 30_000);
});
