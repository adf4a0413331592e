// App shutdown terminates every worker thread, on Node, Deno and Bun.
import { describe, expect, it } from 'vitest';
import { resolveBin, startChild, stopChild } from '../../dev/proc.ts';

const SCRIPT = 'test/threads/shutdown-script.ts';
const COMMANDS = {
  node: () => ({ bin: resolveBin('node'), args: ['--conditions=source', '--import', 'tsx', SCRIPT] }),
  deno: () => ({ bin: resolveBin('deno'), args: ['run', '--allow-net', '--allow-env', '--allow-read', SCRIPT] }),
  bun: () => ({ bin: resolveBin('bun'), args: [SCRIPT] }),
};

describe.each(Object.keys(COMMANDS) as (keyof typeof COMMANDS)[])('shutdown on %s', (runtime) => {
  it('closing the server terminates every thread, even a busy one, and the process then ends by itself', async () => {
    const { bin, args } = COMMANDS[runtime]();
    const child = startChild(bin, args, { NO_COLOR: '1', DENO_NO_UPDATE_CHECK: '1' });
    const ended = await Promise.race([child.done.then(() => true), new Promise<false>((r) => setTimeout(() => r(false), 20_000))]);
    if (!ended) await stopChild(child);
    const line = child
      .output()
      .split('\n')
      .find((l) => l.startsWith('RESULT '));
    expect(ended, `the process did not end by itself:\n${child.output()}`).toBe(true);
    expect(child.exitCode, child.output()).toBe(0);
    expect(line, child.output()).toBeDefined();
    const result = JSON.parse(line!.slice('RESULT '.length));
    expect(result.cpu).toEqual({ value: 7453447.913900535 });
    expect(result.before).toMatchObject({ mode: 'threads', alive: 2, busy: 1 });
    expect(result.after).toMatchObject({ mode: 'closed', alive: 0, busy: 0, queued: 0 });
    expect(result.terminated).toBe(2);
    // Node and Bun report each thread's end; Deno reports none (the process ending is the proof there).
    if (runtime !== 'deno') expect(result.exited).toBe(2);
    expect(result.afterClose).toBe(503);
    // The task tried after close was refused.
    expect(result.kinds).toEqual(['server:listening', 'server:shutdown', 'thread:rejected']);
  }, 30_000);
});
