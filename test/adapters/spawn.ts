// Starts a fixture entry (test/adapters/fixtures) on one runtime as a direct
// child process on a free loopback port, and stops it by pid.
import { type Child, freePort, resolveBin, startChild, stopChild } from '../../dev/proc.ts';
import { node24OrSkip } from '../conformance/node24.ts';

export { withNode24 } from '../conformance/node24.ts';

/** A server runtime; `node24` is the Node entry on Node 24, beside the machine's Node. */
export type FixtureRuntime = 'node' | 'node24' | 'deno' | 'bun' | 'deno-deploy';

export interface Fixture {
  port: number;
  child: Child;
  /** Lines the fixture printed so far (its event log). */
  lines: string[];
  /** Resolves once a printed line matches. */
  waitFor(pattern: RegExp, timeoutMs?: number): Promise<string>;
  /** Resolves with the exit code (null when killed by a signal). */
  exited(): Promise<number | null>;
  stop(): Promise<void>;
}

const DIR = 'test/adapters/fixtures';
const DENO = ['--allow-net', '--allow-env', '--allow-read'];

function command(runtime: FixtureRuntime, port: number): { bin: string; args: string[] } {
  switch (runtime) {
    case 'node':
    case 'node24':
      return { bin: runtime === 'node' ? resolveBin('node') : node24OrSkip()!, args: ['--conditions=source', '--import', 'tsx', `${DIR}/node.ts`] };
    case 'deno':
      return { bin: resolveBin('deno'), args: ['run', ...DENO, `${DIR}/deno.ts`] };
    case 'bun':
      return { bin: resolveBin('bun'), args: [`${DIR}/bun.ts`] };
    case 'deno-deploy':
      return { bin: resolveBin('deno'), args: ['serve', ...DENO, '--host', '127.0.0.1', '--port', String(port), `${DIR}/deploy.ts`] };
  }
}

/** Start the fixture and wait until it answers. `env` sets serve() options (SHUTDOWN_MS, IDLE_MS, …). */
export async function startFixture(runtime: FixtureRuntime, env: Record<string, string> = {}): Promise<Fixture> {
  const port = await freePort();
  const { bin, args } = command(runtime, port);
  // NODE_ENV unset (spawn drops undefined values): Bun shows its development error page then.
  const unset = { NODE_ENV: undefined } as unknown as Record<string, string>;
  const child = startChild(bin, args, { ...unset, PORT: String(port), NO_COLOR: '1', DENO_NO_UPDATE_CHECK: '1', ...env });
  const lines: string[] = [];
  const waiters: { pattern: RegExp; resolve: (line: string) => void }[] = [];
  let partial = '';
  child.proc.stdout!.on('data', (chunk: Buffer) => {
    const text = partial + chunk.toString('utf8');
    const parts = text.split('\n');
    partial = parts.pop()!;
    for (const line of parts) {
      lines.push(line);
      for (const w of [...waiters]) {
        if (w.pattern.test(line)) {
          waiters.splice(waiters.indexOf(w), 1);
          w.resolve(line);
        }
      }
    }
  });
  const fixture: Fixture = {
    port,
    child,
    lines,
    waitFor(pattern, timeoutMs = 10_000) {
      const found = lines.find((l) => pattern.test(l));
      if (found !== undefined) return Promise.resolve(found);
      return new Promise((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error(`No line matching ${pattern} in:\n${child.output()}`)), timeoutMs);
        waiters.push({
          pattern,
          resolve: (line) => {
            clearTimeout(timer);
            resolve(line);
          },
        });
      });
    },
    exited: () => child.done.then(() => child.exitCode),
    stop: () => stopChild(child),
  };
  const deadline = Date.now() + 30_000;
  for (;;) {
    if (child.exited) throw new Error(`${runtime} fixture exited (code ${child.exitCode}):\n${child.output()}`);
    try {
      const res = await fetch(`http://127.0.0.1:${port}/`, { signal: AbortSignal.timeout(2000) });
      await res.arrayBuffer();
      if (res.status === 200) return fixture;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) {
      await fixture.stop();
      throw new Error(`${runtime} fixture not ready in 30 s:\n${child.output()}`);
    }
    await new Promise((r) => setTimeout(r, 100));
  }
}
