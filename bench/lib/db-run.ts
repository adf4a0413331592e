// The runner's side of the DB scenarios: start one throwaway PostgreSQL for
// the whole run when a DB scenario is planned, or drop those scenarios with
// a clear message when PostgreSQL is missing; and the environment that the
// `db` targets get.
import type { Config } from './config.ts';
import { type Cluster, postgresMissing, startCluster } from './postgres.ts';
import { ownServices } from './proc.ts';
import { scenarioById } from './scenarios.ts';

let current: { url: string; pool: number } | undefined;

/** DATABASE_URL and DB_POOL for a `db` target (empty when no database runs). */
export function dbEnv(): Record<string, string> {
  return current ? { DATABASE_URL: current.url, DB_POOL: String(current.pool) } : {};
}

/**
 * When the run includes DB scenarios: starts the cluster, or removes them from
 * `config.scenarios` and says why. Returns the cluster to stop at the end.
 */
export async function prepareDatabase(config: Config, log: (line: string) => void): Promise<Cluster | undefined> {
  const wanted = config.scenarios.filter((id) => scenarioById(id).variant === 'db');
  if (wanted.length === 0) return undefined;
  const skip = (why: string) => {
    log(`bench: skipping the database scenarios (${wanted.join(', ')}): ${why}`);
    config.scenarios = config.scenarios.filter((id) => !wanted.includes(id));
    return undefined;
  };
  const missing = postgresMissing();
  if (missing) return skip(missing);
  try {
    const cluster = await startCluster({ log });
    current = { url: cluster.url, pool: config.dbPool };
    // PostgreSQL's CPU is part of the DB scenarios, not other people's load on the machine.
    ownServices.add(cluster.pid);
    return {
      ...cluster,
      stop: () => {
        ownServices.delete(cluster.pid);
        return cluster.stop();
      },
    };
  } catch (err) {
    return skip(`PostgreSQL did not start: ${(err as Error).message}`);
  }
}
