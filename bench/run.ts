// npm run bench -- [flags]: runs the load tests, then the cold starts, and writes the reports.
// With no flags: the committed report, docs/benchmarks/README.md (methods: docs/benchmarks/methods.md).
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, relative } from 'node:path';
import { killAllNow, stopAll } from '../dev/proc.ts';
import { type BundleSizes, measureBundleSizes } from './lib/bundle-size.ts';
import { measureColdStart } from './lib/cold-start.ts';
import type { ColdStartResult } from './lib/cold-start-result.ts';
import { type Config, parseFlags, resolveConfig, USAGE } from './lib/config.ts';
import { pinDatabase, prepareDatabase } from './lib/db-run.ts';
import { Aborted, interruptible } from './lib/interrupt.ts';
import { stopLoad } from './lib/load.ts';
import { mergeRows, splitResumed } from './lib/merge.ts';
import { collectMeta } from './lib/meta.ts';
import { checkPerf } from './lib/perf-record.ts';
import { pinningText, setUpPinning } from './lib/pin.ts';
import { prepareRedis } from './lib/redis-run.ts';
import { type BenchResult, configForJson, type Row } from './lib/result.ts';
import { plannedRows, Runner } from './lib/runner.ts';
import { SCENARIO_IDS } from './lib/scenarios.ts';
import { summaryText } from './report/summary.ts';
import { writeReports } from './report/write.ts';

const tty = process.stdout.isTTY === true;
let statusShown = false;
let lastPlainStatus = 0;

function clearStatus(): void {
  if (tty && statusShown) process.stdout.write('\r\x1b[2K');
  statusShown = false;
}

const hooks = {
  status(line: string) {
    if (tty) {
      const cols = process.stdout.columns || 120;
      process.stdout.write(`\r\x1b[2K${line.length > cols - 1 ? `${line.slice(0, cols - 2)}…` : line}`);
      statusShown = true;
    } else if (Date.now() - lastPlainStatus > 10_000) {
      // Logs and CI: an occasional progress line instead of a redrawn one.
      lastPlainStatus = Date.now();
      console.log(line);
    }
  },
  log(line: string) {
    clearStatus();
    console.log(line);
  },
};

/** Cold starts of every runtime measured, as the run's last step (0 starts: none). */
async function coldStarts(config: Config): Promise<ColdStartResult | undefined> {
  if (config.coldStarts === 0) return undefined;
  console.log(`\ncold starts: ${config.coldStarts} fresh starts per runtime × app × mode`);
  return measureColdStart({ starts: config.coldStarts, runtimes: config.runtimes, log: hooks.log, signal: interrupted });
}

function rel(p: string): string {
  return relative(process.cwd(), p) || p;
}

function reportOnly(path: string): void {
  const result = JSON.parse(readFileSync(path, 'utf8')) as BenchResult;
  const w = writeReports(result, path, { writeJson: false });
  console.log(summaryText(result));
  console.log(`\nwrote ${rel(w.markdown)}, ${rel(w.html)} and ${w.charts.length} charts`);
}

/** `--report RUN.json --merge FILE.json`: put an earlier run's rows into FILE without measuring. */
function mergeOnly(run: string, into: string): number {
  try {
    const merged = mergeRows(JSON.parse(readFileSync(into, 'utf8')) as BenchResult, JSON.parse(readFileSync(run, 'utf8')) as BenchResult);
    const m = writeReports(merged, into);
    console.log(`merged the rows of ${rel(run)} into ${rel(m.json)} and re-rendered its reports`);
    return 0;
  } catch (err) {
    console.error(`bench: --merge ${into}: ${(err as Error).message}`);
    return 1;
  }
}

async function main(): Promise<number> {
  let config: Config;
  try {
    const flags = parseFlags(process.argv.slice(2));
    if (flags.help) {
      console.log(USAGE);
      return 0;
    }
    config = resolveConfig(flags, SCENARIO_IDS);
  } catch (err) {
    console.error(`bench: ${(err as Error).message}\n\n${USAGE}`);
    return 2;
  }
  if (config.report && config.merge !== undefined) return mergeOnly(config.report, config.merge);
  if (config.report) {
    reportOnly(config.report);
    return 0;
  }

  if (config.perf !== undefined) {
    try {
      checkPerf();
    } catch (err) {
      console.error(`bench: ${(err as Error).message}`);
      return 2;
    }
  }
  const database = await prepareDatabase(config, console.log);
  const redis = await prepareRedis(config, console.log);
  const args = process.argv.slice(2).join(' ');
  const command = args === '' ? 'npm run bench' : `npm run bench -- ${args}`;
  const meta = collectMeta(command, config.baseline);
  let done: Row[] = [];
  // Rows of an interrupted run that this run does not list: kept in the output as they were.
  let others: Row[] = [];
  if (config.resume && existsSync(config.out)) {
    try {
      ({ done, others } = splitResumed(JSON.parse(readFileSync(config.out, 'utf8')) as BenchResult, config));
    } catch (err) {
      console.error(`bench: cannot resume from ${config.out}: ${(err as Error).message}`);
      return 2;
    }
    meta.command += ` (resumed with ${done.length} rows from an earlier run)`;
  }
  meta.pinning = setUpPinning(config.pin);
  pinDatabase(config, meta.pinning);
  const plan = plannedRows(config, done);
  console.log(
    `Rove bench · profile ${config.profile}: ${config.connections} connections, pipelining ${config.pipelining}, ` +
      `${config.durationS} s + ${config.warmupS} s warm-up, ${config.rounds} round(s) · ${plan.length} rows\n` +
      `runtimes ${config.runtimes.join(', ')} · frameworks ${config.frameworks.join(', ')}\n` +
      `node ${meta.versions.node}, deno ${meta.versions.deno}, bun ${meta.versions.bun}, workerd ${meta.versions.workerd}\n` +
      `pinning: ${pinningText(meta.pinning)}`,
  );

  // Bundle sizes take a second and no load: measured before the load tests.
  let bundleSizes: BundleSizes | undefined;
  let coldStart: ColdStartResult | undefined;
  try {
    bundleSizes = await measureBundleSizes();
  } catch (err) {
    console.error(`bench: bundle sizes not measured: ${(err as Error).message}`);
  }
  const resultNow = (): BenchResult => ({
    meta,
    config: configForJson(config),
    rows: [...others, ...runner.rows],
    ...(bundleSizes ? { bundleSizes } : {}),
    ...(coldStart ? { coldStart } : {}),
  });

  // Save the JSON after every row, so an interrupted run can be resumed (--resume).
  const save = () => {
    mkdirSync(dirname(config.out), { recursive: true });
    writeFileSync(config.out, `${JSON.stringify(resultNow(), null, 2)}\n`);
  };
  const runner = new Runner(config, { ...hooks, row: save }, done);
  interrupted.addEventListener('abort', () => {
    runner.abort();
    stopLoad();
  });

  let code = 0;
  try {
    await runner.run();
    // Last, with the load-test servers gone: nothing else competes for the CPU while processes start.
    await stopAll();
    if (!runner.aborted) {
      try {
        coldStart = await coldStarts(config);
      } catch (err) {
        // The load-test rows are still worth writing; the exit code says the run is incomplete.
        if (err instanceof Aborted) code = 130;
        else {
          console.error(`bench: cold starts failed: ${(err as Error).stack ?? err}`);
          code = 1;
        }
      }
    }
  } catch (err) {
    if (!(err instanceof Aborted)) {
      clearStatus();
      console.error(`bench: ${(err as Error).stack ?? err}`);
      code = 1;
    } else code = 130;
  } finally {
    await stopAll();
    await database?.stop();
    await redis?.stop();
  }
  clearStatus();

  const result = resultNow();
  if (result.rows.length > 0) {
    const w = writeReports(result, config.out);
    console.log(`\n${summaryText(result)}`);
    console.log(`\nwrote ${rel(w.json)}, ${rel(w.markdown)}, ${rel(w.html)} and ${w.charts.length} charts${code === 130 ? ' (partial: interrupted)' : ''}`);
    if (config.merge !== undefined && code === 0) {
      try {
        const merged = mergeRows(JSON.parse(readFileSync(config.merge, 'utf8')) as BenchResult, result);
        const m = writeReports(merged, config.merge);
        console.log(`merged ${result.rows.length} rows into ${rel(m.json)} and re-rendered its reports`);
      } catch (err) {
        console.error(`bench: --merge ${config.merge}: ${(err as Error).message}`);
        code = 1;
      }
    }
  }
  return code;
}

// The first SIGINT or SIGTERM stops the run where it is (load or cold starts) and writes what it
// has; a second kills every target at once. Whatever happens, no target outlives the runner.
const interrupted = interruptible((sig) => hooks.log(`\n${sig}: stopping (send it again to kill at once)…`));
process.on('uncaughtException', (err) => {
  killAllNow();
  console.error(err);
  process.exit(1);
});

process.exitCode = await main();
