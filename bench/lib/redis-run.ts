// The runner's side of the Redis scenarios (session-read-redis): one throwaway
// redis-server for the whole run, started as the tests start theirs (dev/redis.ts:
// a free loopback port, nothing saved, stopped by its pid), or the scenarios dropped with a message
// when redis-server is missing; and the REDIS_URL the `redis` targets get.
import { redisServerBin, startRedis } from '../../dev/redis.ts';
import type { Config } from './config.ts';
import { ownServices } from './proc-stats.ts';
import { scenarioById } from './scenarios.ts';

let url: string | undefined;

/** REDIS_URL for a `redis` target (empty when no redis-server runs). */
export function redisEnv(): Record<string, string> {
  return url ? { REDIS_URL: url } : {};
}

export async function prepareRedis(config: Config, log: (line: string) => void): Promise<{ stop(): Promise<void> } | undefined> {
  const wanted = config.scenarios.filter((id) => scenarioById(id).variant === 'redis');
  if (wanted.length === 0) return undefined;
  const skip = (why: string) => {
    log(`bench: skipping the Redis scenarios (${wanted.join(', ')}): ${why}`);
    config.scenarios = config.scenarios.filter((id) => !wanted.includes(id));
    return undefined;
  };
  if (redisServerBin() === undefined) return skip('no redis-server here (scripts/install-redis.sh, or set REDIS_SERVER)');
  try {
    const server = await startRedis();
    url = server.url;
    // Redis's CPU belongs to the scenario, not to other people's load on the machine.
    ownServices.add(server.pid);
    log(`bench: redis-server for the Redis scenarios at ${server.url} (pid ${server.pid})`);
    return {
      stop: async () => {
        ownServices.delete(server.pid);
        url = undefined;
        await server.stop();
      },
    };
  } catch (err) {
    return skip(`redis-server did not start: ${(err as Error).message}`);
  }
}
