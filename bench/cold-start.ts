// npm run bench:cold -- [--starts N] [--runtimes a,b] [--apps a,b] [--modes a,b] [--json] [--out FILE.json | --into FILE.json]
// Cold start per runtime × app × mode: many fresh server processes, each timed from spawn to
// its first answered GET, with the CPU it spent by then (and, on workerd, the module's startup
// time from workerd's own trace). Medians with min–max; see bench/lib/cold-start*.ts.
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { relative } from 'node:path';
import { pickList } from './lib/args.ts';
import { coldStartTable, runColdStarts } from './lib/cold-start.ts';
import { COLD_APPS, COLD_MODES, COLD_RUNTIMES } from './lib/cold-start-apps.ts';
import { Aborted, interruptible } from './lib/interrupt.ts';
import type { BenchResult } from './lib/result.ts';
import { writeReports } from './report/write.ts';

const USAGE = `Usage: npm run bench:cold -- [options]

  --starts N              fresh starts per entry (default 15)
  --runtimes a,b          ${COLD_RUNTIMES.join(',')} (default all)
  --apps a,b              ${COLD_APPS.join(',')} (default all)
  --modes a,b             ${COLD_MODES.join(',')} (default both; workerd is bundled only)
  --no-startup-trace      workerd: skip the traced start after each timed one (the module's startup time)
  --poll-ms N             wait between refused probes (default 1; 0: retry at once)
  --timeout-ms N          give up on a start after N ms (default 20000)
  --json                  print the result as JSON instead of a table
  --out FILE.json         write the result (the coldStart section) to FILE.json
  --into FILE.json        store it in that existing bench result ("coldStart") and re-render its reports
  --keep                  keep the bundles and configs (their directory is printed)
`;

function count(value: string | undefined, flag: string, min: number): number {
  const n = Number(value);
  if (!Number.isInteger(n) || n < min) throw new Error(`${flag}: expected an integer ≥ ${min}, got "${value ?? ''}"`);
  return n;
}

async function main(argv: string[]): Promise<number> {
  const o = {
    starts: 15,
    runtimes: [...COLD_RUNTIMES],
    apps: [...COLD_APPS],
    modes: [...COLD_MODES],
    startupTrace: true,
    pollMs: 1,
    timeoutMs: 20_000,
    keep: false,
  };
  let json = false;
  let out: string | undefined;
  let into: string | undefined;
  try {
    for (let i = 0; i < argv.length; i++) {
      const [flag, inline] = argv[i]!.startsWith('--') && argv[i]!.includes('=') ? argv[i]!.split(/=(.*)/s, 2) : [argv[i]!, undefined];
      const value = () => inline ?? argv[++i];
      if (flag === '--starts') o.starts = count(value(), flag, 1);
      else if (flag === '--runtimes') o.runtimes = pickList('runtime', value(), COLD_RUNTIMES);
      else if (flag === '--apps') o.apps = pickList('app', value(), COLD_APPS);
      else if (flag === '--modes') o.modes = pickList('mode', value(), COLD_MODES);
      else if (flag === '--no-startup-trace') o.startupTrace = false;
      else if (flag === '--poll-ms') o.pollMs = count(value(), flag, 0);
      else if (flag === '--timeout-ms') o.timeoutMs = count(value(), flag, 100);
      else if (flag === '--json') json = true;
      else if (flag === '--out') out = value();
      else if (flag === '--into') into = value();
      else if (flag === '--keep') o.keep = true;
      else if (flag === '--help' || flag === '-h') {
        console.log(USAGE);
        return 0;
      } else throw new Error(`unexpected argument "${argv[i]}"`);
    }
  } catch (err) {
    console.error(`bench:cold: ${(err as Error).message}\n\n${USAGE}`);
    return 2;
  }
  if (into !== undefined && (!into || !existsSync(into))) {
    console.error('bench:cold: --into needs an existing bench result (FILE.json)');
    return 2;
  }
  if (out === '') {
    console.error('bench:cold: --out needs a file name');
    return 2;
  }

  const command = ['npm run bench:cold --', ...argv].join(' ');
  const signal = interruptible((sig) => console.error(`\n${sig}: stopping (send it again to kill at once)…`));
  let result: Awaited<ReturnType<typeof runColdStarts>>;
  try {
    result = await runColdStarts({ ...o, command, signal, log: (line) => console.error(line) });
  } catch (err) {
    if (err instanceof Aborted) return 130;
    throw err;
  }
  console.log(json ? JSON.stringify(result, null, 2) : coldStartTable(result));
  if (out) {
    writeFileSync(out, `${JSON.stringify(result, null, 2)}\n`);
    if (!json) console.log(`\nwrote ${relative(process.cwd(), out) || out}`);
  }
  if (into) {
    const bench = JSON.parse(readFileSync(into, 'utf8')) as BenchResult;
    bench.coldStart = result;
    const w = writeReports(bench, into);
    if (!json)
      console.log(`\nwrote ${relative(process.cwd(), w.json) || w.json}, ${relative(process.cwd(), w.markdown)} and ${relative(process.cwd(), w.html)}`);
  }
  // Entries skipped on purpose (workerd source) are not failures.
  return result.entries.some((e) => e.error !== null && !(e.runtime === 'workerd' && e.mode === 'source')) ? 1 : 0;
}

process.exitCode = await main(process.argv.slice(2));
