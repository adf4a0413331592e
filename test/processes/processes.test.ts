// serve(app, { processes: processGroup(n) }) over real HTTP on Node (node:cluster), Bun and Deno
// (SO_REUSEPORT): N processes answer on one port, and SIGTERM to the primary
// lets in-flight requests finish and stops every child (checked by pid).
import { request } from 'node:http';
import { describe, expect, it } from 'vitest';
import { processCount } from '../../adapters/shared/processes.ts';
import { freePort, readStat, resolveBin, startChild, stopChild } from '../../dev/proc.ts';

const FIXTURE = 'test/processes/fixture.ts';

function command(runtime: 'node' | 'deno' | 'bun'): { bin: string; args: string[] } {
  switch (runtime) {
    case 'node':
      return { bin: resolveBin('node'), args: ['--import', 'tsx', FIXTURE] };
    case 'deno':
      // --allow-run: the primary starts its children.
      return { bin: resolveBin('deno'), args: ['run', '--allow-net', '--allow-env', '--allow-read', '--allow-run', FIXTURE] };
    case 'bun':
      return { bin: resolveBin('bun'), args: [FIXTURE] };
  }
}

/** GET on a fresh connection each time (no keep-alive), so the kernel or cluster picks a process anew. */
function get(port: number, path: string): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port, path, agent: false, headers: { connection: 'close' } }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (c) => (body += c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
    });
    req.on('error', reject);
    // A connection handed to a child at the moment it was killed gets no answer: give up on it.
    req.setTimeout(3000, () => req.destroy(new Error('no answer in 3 s')));
    req.end();
  });
}

const alive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

describe('processCount', () => {
  it("reads a count, 'auto' as one per core, and refuses anything else", () => {
    expect(processCount(undefined)).toBe(1);
    expect(processCount(3)).toBe(3);
    expect(processCount('auto')).toBeGreaterThanOrEqual(1);
    expect(() => processCount(0)).toThrow(RangeError);
    expect(() => processCount(1.5)).toThrow(RangeError);
    expect(() => processCount('many' as 'auto')).toThrow(RangeError);
  });
});

describe.each(['node', 'deno', 'bun'] as const)('serve({ processes: processGroup(2) }) on %s', (runtime) => {
  it('answers from two child processes on one port, replaces one that dies; SIGTERM drains them and stops every one', async () => {
    const port = await freePort();
    const { bin, args } = command(runtime);
    const primary = startChild(bin, args, { PORT: String(port), PROCESSES: '2', NO_COLOR: '1', DENO_NO_UPDATE_CHECK: '1' });
    try {
      // Ready when both children answer: collect pids over fresh connections.
      const pids = new Set<number>();
      const deadline = Date.now() + 20_000;
      while (pids.size < 2 && Date.now() < deadline) {
        if (primary.exited) throw new Error(`the primary exited: ${primary.output()}`);
        try {
          const res = await get(port, '/pid');
          if (res.status === 200) pids.add(Number(res.body));
        } catch {
          await new Promise((r) => setTimeout(r, 50));
        }
      }
      expect(pids.size, primary.output()).toBe(2);
      for (const pid of pids) {
        expect(pid).not.toBe(primary.pid);
        expect(readStat(pid)?.ppid, `process ${pid} is a child of the primary`).toBe(primary.pid);
      }

      // A child that dies is replaced.
      const [victim] = [...pids];
      process.kill(victim!, 'SIGKILL');
      const replaced = new Set<number>();
      const until = Date.now() + 20_000;
      while (replaced.size < 2 && Date.now() < until) {
        try {
          const res = await get(port, '/pid');
          if (res.status === 200 && Number(res.body) !== victim) replaced.add(Number(res.body));
        } catch {
          await new Promise((r) => setTimeout(r, 50));
        }
      }
      expect(replaced.size, primary.output()).toBe(2);
      pids.clear();
      for (const pid of replaced) pids.add(pid);

      const slow = get(port, '/slow');
      await new Promise((r) => setTimeout(r, 200)); // the request is in a child's hands
      process.kill(primary.pid, 'SIGTERM');
      const answer = await slow;
      expect(answer.status).toBe(200);
      expect(answer.body).toMatch(/^slow \d+$/);
      await Promise.race([primary.done, new Promise((r) => setTimeout(r, 10_000))]);
      expect(primary.exited).toBe(true);
      expect(primary.exitCode, primary.output()).toBe(0);
      for (const pid of pids) expect(alive(pid), `child ${pid} still running`).toBe(false);
      await expect(get(port, '/pid')).rejects.toThrow();
    } finally {
      await stopChild(primary);
    }
  }, 40_000);
});
