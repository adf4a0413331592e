// --perf DIR: Linux perf samples of a server's processes over each measured window. V8 runtimes
// start with --perf-basic-prof, so compiled JavaScript has names in the samples; the JSON beside
// each recording holds the window's requests and CPU, so bench/perf-split.ts can give µs per
// request by where the time went (kernel, the runtime, the framework's JavaScript).
import { spawnSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { startChild, stopChild } from '../../dev/proc.ts';

/**
 * V8's flags for a perf map (/tmp/perf-PID.map) of the code it compiles. The map turns on V8's
 * own log too, which goes to isolate-*.log in the working directory unless sent elsewhere.
 */
export const V8_PERF_FLAGS = ['--perf-basic-prof', '--logfile=/dev/null'];
/** Samples per second: an odd rate, so the sampling does not beat with a timer. */
const SAMPLE_HZ = '1999';

/** What --perf needs: Linux perf on PATH. Throws a readable error without it. */
export function checkPerf(): void {
  const r = spawnSync('perf', ['--version'], { stdio: 'ignore' });
  if (r.error || r.status !== 0) throw new Error('--perf needs Linux perf on PATH (Debian: apt-get install linux-perf)');
}

/** Which row and round a recording is of: its file name, and the fields perf-split groups by. */
export interface PerfWindowName {
  runtime: string;
  framework: string;
  scenario: string;
  round: number;
  /** A second window of the same round (the listener row's on and off). */
  tag?: string;
}

/** What the JSON beside each recording holds: the window's name, its counts and its recording's file. */
export interface PerfWindowFile extends PerfWindowName {
  requests: number;
  cpuUs: number;
  data: string;
}

export interface PerfWindow {
  /** Stops the recording (perf writes its file on SIGTERM) and saves the window's counts beside it. */
  stop(requests: number, cpuUs: number): Promise<void>;
}

/**
 * Starts `perf record` on `pids` (every thread of each), as the runner's child: it runs on the
 * load generator's core when pinning is on, not on the server's.
 */
export function startPerf(dir: string, named: PerfWindowName, pids: readonly number[]): PerfWindow {
  const { runtime, framework, scenario, round } = named;
  // The tag is a label (" · listener on"): as a file name part, words joined by dashes.
  const tag = named.tag?.replace(/\W+/g, '-').replace(/^-|-$/g, '');
  const window: PerfWindowName = { runtime, framework, scenario, round, ...(tag ? { tag } : {}) };
  const name = `${runtime}-${framework}-${scenario}-r${round}${tag ? `-${tag}` : ''}`;
  mkdirSync(dir, { recursive: true });
  const data = join(dir, `${name}.data`);
  const child = startChild('perf', ['record', '-e', 'cpu-clock', '-F', SAMPLE_HZ, '-g', '-q', '-p', pids.join(','), '-o', data], {});
  return {
    async stop(requests, cpuUs) {
      await stopChild(child);
      const file: PerfWindowFile = { ...window, requests, cpuUs, data: `${name}.data` };
      writeFileSync(join(dir, `${name}.json`), `${JSON.stringify(file)}\n`);
    },
  };
}
