// npm run bench:tracing -- [--rounds N] [--runtimes …] [--duration S] [--warmup S] [--connections N] [--pipelining N] [--json] [--into FILE.json]
// What tracing costs Rove (otel(app)) and Hono (@hono/otel) on /test and /chain, per runtime:
// each untraced and traced under the same OpenTelemetry SDK (bench/lib/tracing.ts).
//   --rounds N        rounds, each target in a fresh server (default 5)
//   --runtimes LIST   of node, deno, bun (default all three)
//   --duration S, --warmup S, --connections N, --pipelining N   the load (default 3, 1, 100, 10)
//   --json            print the figures as JSON instead of lines
//   --into FILE.json  also store them in an existing bench result and re-render its reports
import { existsSync, readFileSync } from 'node:fs';
import { relative } from 'node:path';
import type { BenchResult } from './lib/result.ts';
import { measureTracing, mergeTracing, type TracingRuntime } from './lib/tracing.ts';
import { writeReports } from './report/write.ts';

const USAGE =
  'Usage: npm run bench:tracing -- [--rounds N] [--runtimes node,deno,bun] [--duration S] [--warmup S] [--connections N] [--pipelining N] [--json] [--into FILE.json]';
const RUNTIMES: readonly TracingRuntime[] = ['node', 'deno', 'bun'];

async function main(argv: string[]): Promise<number> {
  const o = { rounds: 5, runtimes: [...RUNTIMES], durationS: 3, warmupS: 1, connections: 100, pipelining: 10 };
  let json = false;
  let into: string | undefined;
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i]!;
    const value = () => argv[++i] ?? '';
    if (a === '--rounds') o.rounds = Number(value());
    else if (a === '--runtimes') o.runtimes = value().split(',') as TracingRuntime[];
    else if (a === '--duration') o.durationS = Number(value());
    else if (a === '--warmup') o.warmupS = Number(value());
    else if (a === '--connections') o.connections = Number(value());
    else if (a === '--pipelining') o.pipelining = Number(value());
    else if (a === '--json') json = true;
    else if (a === '--into') into = value();
    else if (a === '--help' || a === '-h') {
      console.log(USAGE);
      return 0;
    } else {
      console.error(`bench:tracing: unexpected argument "${a}"\n${USAGE}`);
      return 2;
    }
  }
  const whole = (n: number) => Number.isInteger(n) && n >= 1;
  if (
    !whole(o.rounds) ||
    !whole(o.connections) ||
    !whole(o.pipelining) ||
    !(o.durationS > 0) ||
    !(o.warmupS >= 0) ||
    o.runtimes.some((r) => !RUNTIMES.includes(r))
  ) {
    console.error(
      `bench:tracing: --rounds, --connections and --pipelining take positive integers, --duration a positive number of seconds, --runtimes a list of ${RUNTIMES.join(', ')}\n${USAGE}`,
    );
    return 2;
  }
  if (into !== undefined && !existsSync(into)) {
    console.error('bench:tracing: --into needs an existing bench result (FILE.json)');
    return 2;
  }
  const result = await measureTracing({ ...o, log: json ? undefined : (line) => console.log(line) });
  if (json) console.log(JSON.stringify(result, null, 2));
  if (into) {
    const bench = JSON.parse(readFileSync(into, 'utf8')) as BenchResult;
    bench.tracing = mergeTracing(bench.tracing, result);
    const w = writeReports(bench, into);
    if (!json) console.log(`wrote ${relative(process.cwd(), w.json) || w.json}, ${relative(process.cwd(), w.markdown)} and ${relative(process.cwd(), w.html)}`);
  }
  return result.rows.some((r) => r.error) ? 1 : 0;
}

process.exitCode = await main(process.argv.slice(2));
