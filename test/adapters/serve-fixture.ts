// The adapter fixture on any of the five runtimes: the four server adapters through spawn.ts,
// workerd through the conformance suite's start() (the fixture's worker.ts). Stopped by pid.
import { start } from '../conformance/servers.ts';
import { type FixtureRuntime, startFixture } from './spawn.ts';

export const ALL_RUNTIMES = ['node', 'deno', 'bun', 'deno-deploy', 'workerd'] as const;

/** Start the fixture app on `runtime`; its port, and how to stop it. */
export async function serveFixture(runtime: (typeof ALL_RUNTIMES)[number]): Promise<{ port: number; stop: () => Promise<void> }> {
  if (runtime === 'workerd') {
    const served = await start('workerd', 'test/adapters/fixtures');
    return { port: Number(new URL(served.url).port), stop: () => served.stop() };
  }
  const fx = await startFixture(runtime as FixtureRuntime);
  return { port: fx.port, stop: () => fx.stop() };
}
