// A throwaway redis-server for the tests: on a free loopback port, nothing saved to disk,
// started as a direct child and stopped by its pid. Missing redis-server skips the tests
// with a message locally; in CI (CI or ROVE_REQUIRE_REDIS set, as .ci/run does) it fails them.
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { type Child, freePort, startChild, stopChild } from './proc.ts';
import { RespClient } from './resp.ts';

export interface RedisServer {
  port: number;
  url: string;
  pid: number;
  stop(): Promise<void>;
}

/** The redis-server binary: REDIS_SERVER, else the one on PATH, else undefined. */
export function redisServerBin(): string | undefined {
  const fromEnv = process.env.REDIS_SERVER;
  if (fromEnv) return existsSync(fromEnv) ? fromEnv : undefined;
  try {
    return execFileSync('sh', ['-c', 'command -v redis-server'], { encoding: 'utf8' }).trim() || undefined;
  } catch {
    return undefined;
  }
}

const INSTALL = 'install it with scripts/install-redis.sh (Debian: apt-get install redis-server) or set REDIS_SERVER';
const required = Boolean(process.env.CI || process.env.ROVE_REQUIRE_REDIS);

/**
 * Why the Redis tests are skipped, or null when they run. In CI they always run (a missing
 * redis-server then fails them rather than hiding them).
 */
export function redisSkipReason(): string | null {
  if (required || redisServerBin() !== undefined) return null;
  return `no redis-server here: ${INSTALL}`;
}

export async function startRedis(): Promise<RedisServer> {
  const bin = redisServerBin();
  if (bin === undefined) throw new Error(`redis-server is required here: ${INSTALL}`);
  const port = await freePort();
  const child: Child = startChild(bin, ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no', '--daemonize', 'no'], {});
  const stop = () => stopChild(child);
  const deadline = Date.now() + 10_000;
  for (;;) {
    if (child.exited) throw new Error(`redis-server exited (code ${child.exitCode}):\n${child.output()}`);
    try {
      const client = await RespClient.connect(port);
      const pong = await client.sendCommand(['PING']);
      client.close();
      if (pong === 'PONG') break;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) {
      await stop();
      throw new Error(`redis-server did not answer PING in 10 s:\n${child.output()}`);
    }
    await new Promise((r) => setTimeout(r, 50));
  }
  return { port, url: `redis://127.0.0.1:${port}`, pid: child.pid, stop };
}
