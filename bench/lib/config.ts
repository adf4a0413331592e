// Load profiles and command-line flags. An explicit flag always wins over
// the profile; lists default to everything known.
import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { pickList } from './args.ts';

export const RUNTIMES = ['node', 'deno', 'bun', 'deno-deploy', 'workerd'] as const;
/** What `--frameworks all` selects. */
export const FRAMEWORKS = ['rove', 'rove-fs', 'hono', 'raw'] as const;
/** What no --frameworks flag selects: the comparison a user reads (rove-fs and rove-baseline only on request). */
export const DEFAULT_FRAMEWORKS = ['rove', 'hono', 'raw'] as const;
/** Rove's bench app started from another tree (--baseline DIR): the code before a change, beside `rove`. */
export const BASELINE = 'rove-baseline';
/** Every framework a row can have, in report order. */
export const ALL_FRAMEWORKS = ['rove', BASELINE, 'rove-fs', 'hono', 'raw'] as const;
export type RuntimeId = (typeof RUNTIMES)[number];
export type FrameworkId = (typeof ALL_FRAMEWORKS)[number];

export interface LoadSettings {
  connections: number;
  pipelining: number;
  durationS: number;
  warmupS: number;
}

export const PROFILES = {
  // The committed report (npm run bench with no flags): the default profile's load, shortened so that
  // 386 rows × 3 rounds, each in a fresh process (1.5–1.7 s to start, check and stop), take about
  // 80 minutes on 2 cores. 2 s is two of autocannon's one-second samples; methods.md says more.
  report: { connections: 100, pipelining: 10, durationS: 2, warmupS: 0.5 },
  quick: { connections: 10, pipelining: 1, durationS: 1, warmupS: 0.5 },
  default: { connections: 100, pipelining: 10, durationS: 10, warmupS: 3 },
  seed: { connections: 500, pipelining: 10, durationS: 30, warmupS: 5 },
} as const satisfies Record<string, LoadSettings>;

export type ProfileId = keyof typeof PROFILES;
/** The profile used when --profile is not given. */
export const DEFAULT_PROFILE: ProfileId = 'report';
/** Where the report profile writes by default: the committed report (README.md, results.json, charts/). */
export const REPORT_JSON = 'docs/benchmarks/results.json';
/** Cold starts per entry after the load tests (quick: none, so the test suite stays fast). */
export const COLD_STARTS = 30;

export interface Flags {
  profile?: string;
  runtimes?: string[];
  frameworks?: string[];
  scenarios?: string[];
  connections?: number;
  pipelining?: number;
  durationS?: number;
  warmupS?: number;
  rounds?: number;
  waitQuietS?: number;
  out?: string;
  report?: string;
  cpuProf?: string;
  perf?: string;
  resume?: boolean;
  merge?: string;
  pin?: string;
  runtimeLoad?: string;
  help?: boolean;
  dbPool?: number;
  dbCpu?: string;
  processes?: number;
  fresh?: boolean;
  baseline?: string;
  coldStarts?: number;
}

export interface Config extends LoadSettings {
  profile: ProfileId;
  rounds: number;
  /** Before each measurement, wait up to this long for other processes to leave the CPU (0: never wait). */
  waitQuietS: number;
  runtimes: RuntimeId[];
  frameworks: FrameworkId[];
  scenarios: string[];
  out: string;
  /** Re-render the reports of an existing JSON file instead of running. */
  report?: string;
  /** Directory for CPU profiles of the node and bun targets (--cpu-prof). */
  cpuProf?: string;
  /** Directory for Linux perf recordings of each measured window (--perf). */
  perf?: string;
  /** Keep the rows already in --out (an interrupted run of the same settings) and measure the rest. */
  resume: boolean;
  /** After the run, put its rows into this earlier result in place of the rows they measure again. */
  merge?: string;
  /** Connections in each target's PostgreSQL pool (DB scenarios; per process). */
  dbPool: number;
  /** Where PostgreSQL runs when pinning is on: with the load generator (default), with the servers, or anywhere. */
  dbCpu: 'load' | 'server' | 'off';
  /** Server processes per rove target on node, deno and bun (serve's `processes`). */
  processes: number;
  /** Start every target's server again before each measurement after its first (each round gets its own processes). */
  fresh: boolean;
  /** Pin the server and the load generator to separate cores with taskset: 'auto' when available, or 'off'. */
  pin: 'auto' | 'off';
  /** 'sustained' (default): runtimes run with the load they sustain (bench/lib/runtime-load.ts); 'profile': the profile's, everywhere. */
  runtimeLoad: 'sustained' | 'profile';
  /** --baseline DIR: another Rove tree (absolute path) whose bench app runs as the framework `rove-baseline`. */
  baseline?: string;
  /** Fresh starts per entry of the cold-start measurement run after the load tests (0: none). */
  coldStarts: number;
}

export const USAGE = `Usage: npm run bench -- [flags]

  --profile report|quick|default|seed
                                 load settings (default: report, which writes the
                                 committed report ${REPORT_JSON} and README.md)
  --runtimes LIST                ${RUNTIMES.join(',')} (default: all)
  --frameworks LIST              ${FRAMEWORKS.join(',')} (default: ${DEFAULT_FRAMEWORKS.join(',')};
                                 all: every one)
  --scenarios LIST               scenario ids (see bench/lib/scenarios.ts)
  --connections N  --pipelining N  --duration S  --warmup S
  --rounds N                     repeat each measurement, report the median and the
                                 spread (default 3; quick: 1)
  --pin auto|off                 pin the server and the load generator to separate
                                 cores with taskset when it exists (default auto)
  --runtime-load sustained|profile
                                 sustained (default): workerd runs unpipelined, the load
                                 it serves evenly; profile: the profile's everywhere
  --wait-quiet S                 wait up to S s before each measurement while other
                                 processes keep the CPU busy (default 60; quick: 0)
  --out FILE.json                also writes FILE.md, FILE.html, FILE-charts/*.svg; a file
                                 named results.json gets README.md, report.html, charts/
                                 (the JSON is saved after every row; default: tmp/bench/
                                 PROFILE.json, report profile: ${REPORT_JSON})
  --resume                       keep the rows already in --out, measure only the rest
                                 (rows of runtimes, frameworks, scenarios not listed stay)
  --merge FILE.json              after the run, put its rows into FILE.json in place of
                                 the same runtime, framework and scenario, and re-render it
  --report FILE.json             only re-render the reports of an existing run; with
                                 --merge, put that run's rows into the merge file instead
  --cpu-prof DIR                 write CPU profiles of the node, bun and deno targets to DIR
                                 (summarise them with bench/profile.ts)
  --perf DIR                     record each measured window with Linux perf into DIR, V8's
                                 code named (--perf-basic-prof); split µs per request with
                                 bench/perf-split.ts (slows the servers: for profiles only)
  --db-pool N                    PostgreSQL pool size per server process (default 10)
  --db-cpu load|server|off       with pinning, run PostgreSQL on the load generator's
                                 core (default), on the servers' core, or unpinned
  --processes N                  rove targets on node, deno, bun serve with N processes (default 1)
  --fresh, --no-fresh            start each server again before every measurement after its
                                 first, with its own warm-up: rounds then run in fresh
                                 processes (Node processes land at different speeds;
                                 default: on in the report profile, off otherwise)
  --cold-starts N                after the load tests, measure cold starts with N fresh
                                 starts per entry (default ${COLD_STARTS} for the full report
                                 run, no flags; 0, none, for any other run)
  --baseline DIR                 add the framework ${BASELINE}: the same Rove bench app started
                                 from the tree DIR (e.g. a worktree of the commit before a change),
                                 measured beside rove in every round; the report adds rove/${BASELINE}
`;

const NUMBER_FLAGS: Record<string, keyof Flags> = {
  connections: 'connections',
  pipelining: 'pipelining',
  duration: 'durationS',
  warmup: 'warmupS',
  rounds: 'rounds',
  'wait-quiet': 'waitQuietS',
  'db-pool': 'dbPool',
  processes: 'processes',
  'cold-starts': 'coldStarts',
};
const LIST_FLAGS: Record<string, keyof Flags> = { runtimes: 'runtimes', frameworks: 'frameworks', scenarios: 'scenarios' };
const STRING_FLAGS: Record<string, keyof Flags> = {
  profile: 'profile',
  out: 'out',
  report: 'report',
  merge: 'merge',
  'cpu-prof': 'cpuProf',
  perf: 'perf',
  pin: 'pin',
  'runtime-load': 'runtimeLoad',
  'db-cpu': 'dbCpu',
  baseline: 'baseline',
};

/** Parses `--flag value` and `--flag=value`; throws on anything unknown. */
export function parseFlags(argv: readonly string[]): Flags {
  const flags: Flags = {};
  const set = flags as Record<string, unknown>;
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    if (arg === '--help' || arg === '-h') {
      flags.help = true;
      continue;
    }
    if (arg === '--resume' || arg === '--fresh' || arg === '--no-fresh') {
      if (arg === '--resume') flags.resume = true;
      else flags.fresh = arg === '--fresh';
      continue;
    }
    if (!arg.startsWith('--')) throw new Error(`unexpected argument "${arg}"`);
    const eq = arg.indexOf('=');
    const name = eq < 0 ? arg.slice(2) : arg.slice(2, eq);
    const known = NUMBER_FLAGS[name] ?? LIST_FLAGS[name] ?? STRING_FLAGS[name];
    if (!known) throw new Error(`unknown flag --${name}`);
    const value: string | undefined = eq < 0 ? argv[++i] : arg.slice(eq + 1);
    if (value === undefined || (eq < 0 && value.startsWith('--'))) throw new Error(`--${name} needs a value`);
    if (NUMBER_FLAGS[name]) {
      const n = Number(value);
      // A warm-up or wait of 0 is allowed; everything else must be positive.
      const zeroOk = name === 'warmup' || name === 'wait-quiet' || name === 'cold-starts';
      if (!Number.isFinite(n) || n < 0 || (n === 0 && !zeroOk)) throw new Error(`--${name} must be a positive number, got "${value}"`);
      if (name === 'connections' || name === 'pipelining' || name === 'rounds' || name === 'db-pool' || name === 'processes' || name === 'cold-starts') {
        if (!Number.isInteger(n)) throw new Error(`--${name} must be an integer`);
      }
      set[known] = n;
    } else if (LIST_FLAGS[name]) {
      set[known] = value
        .split(',')
        .map((s) => s.trim())
        .filter(Boolean);
    } else {
      set[known] = value;
    }
  }
  return flags;
}

/** Profile defaults, overridden by explicit flags; validates every id. */
export function resolveConfig(flags: Flags, scenarioIds: readonly string[]): Config {
  const profile = (flags.profile ?? DEFAULT_PROFILE) as ProfileId;
  if (!Object.hasOwn(PROFILES, profile)) throw new Error(`unknown profile "${flags.profile}" (known: ${Object.keys(PROFILES).join(', ')})`);
  const base = PROFILES[profile];
  const baseline = flags.baseline === undefined ? undefined : baselineDir(flags.baseline);
  return {
    profile,
    connections: flags.connections ?? base.connections,
    pipelining: flags.pipelining ?? base.pipelining,
    durationS: flags.durationS ?? base.durationS,
    warmupS: flags.warmupS ?? base.warmupS,
    // One round cannot tell a real gap from noise: every profile but quick repeats three times.
    rounds: flags.rounds ?? (profile === 'quick' ? 1 : 3),
    // The test suite's quick runs should never stall; committed runs should not measure other people's load.
    waitQuietS: flags.waitQuietS ?? (profile === 'quick' ? 0 : 60),
    runtimes: pickList('runtime', flags.runtimes, RUNTIMES),
    frameworks: pickFrameworks(flags.frameworks, baseline),
    scenarios: pickList('scenario', flags.scenarios, scenarioIds),
    out: flags.out ?? (profile === 'report' ? REPORT_JSON : `tmp/bench/${profile}.json`),
    report: flags.report,
    cpuProf: flags.cpuProf,
    ...(flags.perf !== undefined ? { perf: flags.perf } : {}),
    // The report's rounds each get their own processes, so a slow or fast process shows as spread.
    fresh: flags.fresh ?? profile === 'report',
    resume: flags.resume ?? false,
    ...(flags.merge !== undefined ? { merge: flags.merge } : {}),
    dbPool: flags.dbPool ?? 10,
    dbCpu: dbCpuFlag(flags.dbCpu),
    processes: flags.processes ?? 1,
    pin: pinFlag(flags.pin),
    runtimeLoad: runtimeLoadFlag(flags.runtimeLoad),
    ...(baseline !== undefined ? { baseline } : {}),
    coldStarts: flags.coldStarts ?? (fullReport(profile, flags) ? COLD_STARTS : 0),
  };
}

/**
 * The run that writes the whole committed report: the report profile with no runtime, framework or
 * scenario picked. Only it measures cold starts unless asked: a run of a few rows should not take
 * the quarter of an hour 30 starts per entry take.
 */
function fullReport(profile: ProfileId, flags: Flags): boolean {
  return profile === 'report' && flags.runtimes === undefined && flags.frameworks === undefined && flags.scenarios === undefined;
}

/** --baseline DIR as an absolute path, checked to hold Rove's bench app. */
function baselineDir(dir: string): string {
  const abs = resolve(dir);
  if (!existsSync(join(abs, 'examples/bench'))) throw new Error(`--baseline ${dir}: no examples/bench in ${abs} (expected a Rove tree)`);
  return abs;
}

/** With --baseline, rove-baseline is one of the frameworks (added when --frameworks leaves it out); without, it is unknown. */
function pickFrameworks(given: string[] | undefined, baseline: string | undefined): FrameworkId[] {
  if (baseline === undefined) {
    if (given?.includes(BASELINE)) throw new Error(`framework "${BASELINE}" needs --baseline DIR`);
    return given && given.length > 0 ? pickList('framework', given, FRAMEWORKS) : [...DEFAULT_FRAMEWORKS];
  }
  if (!given || given.length === 0) return [...DEFAULT_FRAMEWORKS.slice(0, 1), BASELINE, ...DEFAULT_FRAMEWORKS.slice(1)];
  const all = given.length === 1 && given[0] === 'all';
  return pickList('framework', all || given.includes(BASELINE) ? given : [...given, BASELINE], ALL_FRAMEWORKS);
}

function pinFlag(v: string | undefined): 'auto' | 'off' {
  if (v === undefined || v === 'auto' || v === 'on') return 'auto';
  if (v === 'off') return 'off';
  throw new Error(`--pin takes auto or off, got "${v}"`);
}

function dbCpuFlag(v: string | undefined): 'load' | 'server' | 'off' {
  if (v === undefined || v === 'load') return 'load';
  if (v === 'server' || v === 'off') return v;
  throw new Error(`--db-cpu takes load, server or off, got "${v}"`);
}

function runtimeLoadFlag(v: string | undefined): 'sustained' | 'profile' {
  if (v === undefined || v === 'sustained') return 'sustained';
  if (v === 'profile') return 'profile';
  throw new Error(`--runtime-load takes sustained or profile, got "${v}"`);
}
