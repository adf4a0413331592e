// A throwaway PostgreSQL cluster for the bench's database scenarios and the
// examples/postgres tests: initdb into a temp dir, pg_ctl start on a free
// loopback port with fsync off (we measure the server, not the disk), seed
// the data, and stop and remove it all at the end, on Ctrl-C and on exit too.
//
// PostgreSQL comes from Debian's `postgresql` package (scripts/install-postgres.sh);
// PG_BIN may point at another bin directory.
import { execFileSync, type SpawnSyncOptions, spawnSync } from 'node:child_process';
import { appendFileSync, chownSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import postgres from 'postgres';
import { freePort } from './proc.ts';

export interface Cluster {
  /** postgres://postgres@127.0.0.1:PORT/bench */
  url: string;
  port: number;
  /** The major version, e.g. "15". */
  version: string;
  /** The postmaster's pid (its backends are its children). */
  pid: number;
  /** Stops the server and removes its files; safe to call twice. */
  stop(): Promise<void>;
}

export interface ClusterOptions {
  /** Fills the `bench` database once it exists (the load test's tables: bench/lib/db-seed.ts). */
  seed?: (url: string) => Promise<void>;
  /** The server's max_connections (default 300: workerd opens one per request in flight). */
  maxConnections?: number;
  log?: (line: string) => void;
}

/** The bin directory of the newest PostgreSQL on this machine (PG_BIN wins), or null. */
export function findPostgres(): { bin: string; version: string } | null {
  const fromEnv = process.env.PG_BIN;
  if (fromEnv) return existsSync(join(fromEnv, 'initdb')) ? { bin: fromEnv, version: versionOf(fromEnv) } : null;
  const base = '/usr/lib/postgresql';
  let versions: string[];
  try {
    versions = readdirSync(base).filter((v) => existsSync(join(base, v, 'bin', 'initdb')));
  } catch {
    return null;
  }
  versions.sort((a, b) => Number(b) - Number(a));
  const v = versions[0];
  return v ? { bin: join(base, v, 'bin'), version: v } : null;
}

function versionOf(bin: string): string {
  try {
    const out = execFileSync(join(bin, 'pg_ctl'), ['--version'], { encoding: 'utf8' });
    return /(\d+)(\.\d+)?/.exec(out)?.[1] ?? '?';
  } catch {
    return '?';
  }
}

/** Why the database scenarios cannot run here, or null when they can. */
export function postgresMissing(): string | null {
  if (findPostgres()) return null;
  return 'PostgreSQL is not installed (no /usr/lib/postgresql/*/bin/initdb; run scripts/install-postgres.sh or set PG_BIN)';
}

/** initdb refuses to run as root: then every PostgreSQL program runs as the `postgres` user. */
function runAs(): { uid: number; gid: number } | undefined {
  if (process.getuid?.() !== 0) return undefined;
  try {
    const uid = Number(execFileSync('id', ['-u', 'postgres'], { encoding: 'utf8' }).trim());
    const gid = Number(execFileSync('id', ['-g', 'postgres'], { encoding: 'utf8' }).trim());
    return { uid, gid };
  } catch {
    throw new Error('running as root, and there is no `postgres` user to run initdb as (Debian’s package creates one)');
  }
}

const live = new Set<{ bin: string; dir: string; user?: { uid: number; gid: number } }>();
let exitHookInstalled = false;

/** Synchronous: the last resort on process exit, when nothing async can run. */
function stopNow(c: { bin: string; dir: string; user?: { uid: number; gid: number } }): void {
  const data = join(c.dir, 'data');
  if (existsSync(join(data, 'postmaster.pid'))) {
    spawnSync(join(c.bin, 'pg_ctl'), ['-D', data, '-m', 'immediate', '-w', '-t', '10', 'stop'], { ...asUser(c.user, c.dir), stdio: 'ignore' });
  }
  rmSync(c.dir, { recursive: true, force: true });
  live.delete(c);
}

function asUser(user: { uid: number; gid: number } | undefined, cwd: string): SpawnSyncOptions {
  return { cwd, ...(user ? { uid: user.uid, gid: user.gid } : {}), env: { PATH: process.env.PATH ?? '/usr/bin:/bin', LC_ALL: 'C.UTF-8', TZ: 'UTC' } };
}

function run(bin: string, args: string[], opts: SpawnSyncOptions): void {
  const r = spawnSync(bin, args, { ...opts, encoding: 'utf8', timeout: 60_000 });
  if (r.status !== 0) throw new Error(`${bin} ${args.join(' ')} failed (${r.status ?? r.signal}): ${`${r.stdout ?? ''}${r.stderr ?? ''}`.trim().slice(-800)}`);
}

/**
 * Starts a throwaway cluster with an empty `bench` database, filled by `seed` when given.
 *
 * @example
 * const db = await startCluster({ seed });
 * process.env.DATABASE_URL = db.url;
 * // … run servers against it …
 * await db.stop();
 */
export async function startCluster(options: ClusterOptions = {}): Promise<Cluster> {
  const found = findPostgres();
  if (!found) throw new Error(postgresMissing()!);
  const user = runAs();
  const dir = mkdtempSync(join(tmpdir(), 'rove-pg-'));
  if (user) chownSync(dir, user.uid, user.gid);
  const entry = { bin: found.bin, dir, ...(user ? { user } : {}) };
  live.add(entry);
  if (!exitHookInstalled) {
    exitHookInstalled = true;
    process.on('exit', () => {
      for (const c of [...live]) stopNow(c);
    });
  }
  const data = join(dir, 'data');
  const opts = asUser(user, dir);
  try {
    run(join(found.bin, 'initdb'), ['-D', data, '-U', 'postgres', '--auth=trust', '-E', 'UTF8', '--locale=C.UTF-8', '--no-sync'], opts);
    const port = await freePort();
    appendFileSync(
      join(data, 'postgresql.conf'),
      [
        '',
        '# rove bench: a throwaway cluster on loopback, no durability',
        "listen_addresses = '127.0.0.1'",
        `port = ${port}`,
        "unix_socket_directories = ''",
        'fsync = off',
        'synchronous_commit = off',
        'full_page_writes = off',
        `max_connections = ${options.maxConnections ?? 300}`,
        'shared_buffers = 64MB',
        "log_min_messages = 'warning'",
        '',
      ].join('\n'),
    );
    run(join(found.bin, 'pg_ctl'), ['-D', data, '-l', join(dir, 'server.log'), '-w', '-t', '30', 'start'], opts);
    const url = `postgres://postgres@127.0.0.1:${port}/postgres`;
    const admin = postgres(url, { max: 1, onnotice: () => {} });
    try {
      await admin`create database bench`;
    } finally {
      await admin.end();
    }
    const benchUrl = `postgres://postgres@127.0.0.1:${port}/bench`;
    if (options.seed) await options.seed(benchUrl);
    options.log?.(`PostgreSQL ${found.version}: throwaway cluster on 127.0.0.1:${port} (${dir}, fsync off)`);
    let stopped = false;
    const pid = Number(readFileSync(join(data, 'postmaster.pid'), 'utf8').split('\n', 1)[0]);
    return {
      url: benchUrl,
      port,
      version: found.version,
      pid,
      async stop() {
        if (stopped) return;
        stopped = true;
        const r = spawnSync(join(found.bin, 'pg_ctl'), ['-D', data, '-m', 'fast', '-w', '-t', '10', 'stop'], { ...opts, stdio: 'ignore' });
        if (r.status !== 0) stopNow(entry);
        rmSync(dir, { recursive: true, force: true });
        live.delete(entry);
      },
    };
  } catch (err) {
    const logFile = join(dir, 'server.log');
    const tail = existsSync(logFile) ? `\n${readFileSync(logFile, 'utf8').slice(-800)}` : '';
    stopNow(entry);
    throw new Error(`${(err as Error).message}${tail}`);
  }
}
