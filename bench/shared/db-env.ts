// How the bench entries on Node, Deno, Bun and Deno Deploy find their database:
// DATABASE_URL (set by the runner for the `db` variant) and DB_POOL (the pool size).
import { type DbSource, poolSource } from './db.ts';

/** The pool from the environment, or undefined when DATABASE_URL is not set (no DB routes then). */
export function dbFromEnv(get: (name: string) => string | undefined): DbSource | undefined {
  const url = get('DATABASE_URL');
  if (!url) return undefined;
  const size = Number(get('DB_POOL') ?? 10);
  return poolSource(url, Number.isInteger(size) && size > 0 ? size : 10);
}
