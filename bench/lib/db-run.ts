// The runner's side of the DB scenarios: start one throwaway PostgreSQL for
// the whole run when a DB scenario is planned, or drop those scenarios with
// a clear message when PostgreSQL is missing; and the environment that the
// `db` targets get.
import postgres from 'postgres';
import { type Cluster, postgresMissing, startCluster } from '../../dev/postgres.ts';
import { processTree } from '../../dev/proc.ts';
import type { Config } from './config.ts';
import { seed } from './db-seed.ts';
import { type Pinning, pinTree } from './pin.ts';
import { ownServices } from './proc-stats.ts';
import { scenarioById } from './scenarios.ts';

let current: { url: string; pool: number; pid: number } | undefined;
let admin: postgres.Sql | undefined;

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
    const cluster = await startCluster({ log, seed });
    current = { url: cluster.url, pool: config.dbPool, pid: cluster.pid };
    // PostgreSQL's CPU is part of the DB scenarios, not other people's load on the machine.
    ownServices.add(cluster.pid);
    return {
      ...cluster,
      stop: async () => {
        ownServices.delete(cluster.pid);
        await admin?.end({ timeout: 2 });
        admin = undefined;
        current = undefined;
        return cluster.stop();
      },
    };
  } catch (err) {
    return skip(`PostgreSQL did not start: ${(err as Error).message}`);
  }
}

/**
 * With pinning on, moves PostgreSQL (the postmaster and its helpers; the backends it forks
 * later inherit it) onto the load generator's core or the servers' (--db-cpu), and records it.
 * Unpinned, the scheduler put its backends on either core from one round to the next, beside
 * the server being measured in some rounds and not in others.
 */
export function pinDatabase(config: Config, pinning: Pinning | null): void {
  if (!current || !pinning || config.dbCpu === 'off') return;
  const cpus = config.dbCpu === 'server' ? pinning.server : pinning.load;
  if (pinTree(processTree(current.pid), cpus)) pinning.db = cpus;
}

/**
 * Vacuums the table `updates` writes, so every measurement starts from the same table.
 * Each `updates` round leaves hundreds of thousands of dead row versions in the 10,000-row
 * `world` table, faster than autovacuum (once a minute) clears them; without this, later
 * rounds and runtimes read and update an ever larger table, and the round order decides.
 */
export async function tidyDatabase(): Promise<void> {
  if (!current || process.env.BENCH_NO_VACUUM) return;
  admin ??= postgres(current.url, { max: 1, onnotice: () => {}, fetch_types: false });
  await admin`vacuum world`;
}
