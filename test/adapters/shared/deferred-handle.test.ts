// The handle `serve()` returns on Deno while the process-group code loads on demand.
import { describe, expect, it } from 'vitest';
import { deferredHandle } from '../../../adapters/shared/deferred-handle.ts';
import { checkProcesses } from '../../../adapters/shared/process-env.ts';
import type { ServeHandle } from '../../../adapters/shared/serve-options.ts';

function fakeHandle(): ServeHandle & { closed: number; pids: number[] } {
  const h = {
    port: 8123,
    hostname: '127.0.0.1',
    url: 'http://127.0.0.1:8123/',
    ready: Promise.resolve(),
    finished: Promise.resolve(),
    closed: 0,
    pids: [11, 12],
    close: async () => {
      h.closed++;
    },
  };
  return h;
}

describe('deferredHandle', () => {
  it('is empty until the server starts, then answers for it', async () => {
    let start!: (h: ServeHandle) => void;
    const inner = fakeHandle();
    const handle = deferredHandle(new Promise((resolve) => (start = resolve)));
    expect([handle.port, handle.hostname, handle.url, handle.pids]).toEqual([0, '', '', []]);
    start(inner);
    await handle.ready;
    expect([handle.port, handle.hostname, handle.url, handle.pids]).toEqual([8123, '127.0.0.1', 'http://127.0.0.1:8123/', [11, 12]]);
    await handle.close();
    expect(inner.closed).toBe(1);
    await handle.finished;
  });

  it('rejects ready when the server cannot start; close and finished still settle', async () => {
    const handle = deferredHandle(Promise.reject(new Error('no group')));
    await expect(handle.ready).rejects.toThrow('no group');
    await expect(handle.close()).resolves.toBeUndefined();
    await expect(handle.finished).resolves.toBeUndefined();
  });
});

describe('checkProcesses', () => {
  it("takes 'auto', a positive integer or nothing, and refuses anything else at once", () => {
    for (const ok of [undefined, 'auto', 1, 4] as const) expect(() => checkProcesses(ok)).not.toThrow();
    for (const bad of [0, -1, 1.5, Number.NaN, 'many' as 'auto']) expect(() => checkProcesses(bad)).toThrow(RangeError);
  });
});
