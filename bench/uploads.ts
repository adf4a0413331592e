// npm run bench:uploads -- [--size-mib N] [--rounds N] [--runtimes …] [--frameworks …] [--json] [--into FILE.json]
// One large file posted to a Rove server (rove/uploads) and to a Hono one (parseBody()), per
// runtime, each writing it to disk: throughput and the server's memory growth (bench/lib/uploads.ts).
//   --size-mib N      the file's size on every runtime (default 1024 on Node and Bun, 256 on
//                     Deno, whose Deno.serve slows to about 10 MB/s under a slow reader)
//   --rounds N        rounds, each in fresh servers (default 3)
//   --runtimes LIST   of node, deno, bun (default all three)
//   --frameworks LIST of rove, hono, raw (a bare server storing the whole body; default all three)
//   --json            print the figures as JSON instead of lines
//   --into FILE.json  also store them in an existing bench result (in place of its rows for the
//                     same runtimes) and re-render its reports
import { existsSync, readFileSync } from 'node:fs';
import { relative } from 'node:path';
import type { BenchResult } from './lib/result.ts';
import { measureUploads, mergeUploads, type UploadFramework, type UploadRuntime } from './lib/uploads.ts';
import { writeReports } from './report/write.ts';

const USAGE = 'Usage: npm run bench:uploads -- [--size-mib N] [--rounds N] [--runtimes node,deno,bun] [--frameworks rove,hono,raw] [--json] [--into FILE.json]';
const RUNTIMES: readonly UploadRuntime[] = ['node', 'deno', 'bun'];
const FRAMEWORKS: readonly UploadFramework[] = ['rove', 'hono', 'raw'];
// Deno.serve reads a body ahead of a slow reader and slows to about 10 MB/s (docs/uploads.md):
// three rounds of 1 GiB there would take most of an hour.
const DEFAULT_SIZE_MIB: Record<UploadRuntime, number> = { node: 1024, deno: 256, bun: 1024 };

async function main(argv: string[]): Promise<number> {
  let sizeMiB: number | undefined;
  let rounds = 3;
  let runtimes = [...RUNTIMES];
  let frameworks = [...FRAMEWORKS];
  let json = false;
  let into: string | undefined;
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i]!;
    const value = () => argv[++i] ?? '';
    if (a === '--size-mib') sizeMiB = Number(value());
    else if (a === '--rounds') rounds = Number(value());
    else if (a === '--runtimes') runtimes = value().split(',') as UploadRuntime[];
    else if (a === '--frameworks') frameworks = value().split(',') as UploadFramework[];
    else if (a === '--json') json = true;
    else if (a === '--into') into = value();
    else if (a === '--help' || a === '-h') {
      console.log(USAGE);
      return 0;
    } else {
      console.error(`bench:uploads: unexpected argument "${a}"\n${USAGE}`);
      return 2;
    }
  }
  if (
    (sizeMiB !== undefined && (!Number.isInteger(sizeMiB) || sizeMiB < 1)) ||
    !Number.isInteger(rounds) ||
    rounds < 1 ||
    runtimes.some((r) => !RUNTIMES.includes(r)) ||
    frameworks.some((f) => !FRAMEWORKS.includes(f))
  ) {
    console.error(
      `bench:uploads: --size-mib and --rounds take positive integers, --runtimes a list of ${RUNTIMES.join(', ')}, --frameworks of ${FRAMEWORKS.join(', ')}\n${USAGE}`,
    );
    return 2;
  }
  if (into !== undefined && !existsSync(into)) {
    console.error('bench:uploads: --into needs an existing bench result (FILE.json)');
    return 2;
  }
  const sizeFor = (runtime: UploadRuntime) => sizeMiB ?? DEFAULT_SIZE_MIB[runtime];
  const result = await measureUploads({ sizeMiB: sizeFor, rounds, runtimes, frameworks, log: json ? undefined : (line) => console.log(line) });
  if (json) console.log(JSON.stringify(result, null, 2));
  if (into) {
    const bench = JSON.parse(readFileSync(into, 'utf8')) as BenchResult;
    bench.uploads = mergeUploads(bench.uploads, result);
    const w = writeReports(bench, into);
    if (!json) console.log(`wrote ${relative(process.cwd(), w.json) || w.json}, ${relative(process.cwd(), w.markdown)} and ${relative(process.cwd(), w.html)}`);
  }
  // A Hono row that fails (out of memory, a platform cap) is a finding; a Rove or raw row that fails is not.
  return result.rows.some((r) => r.framework !== 'hono' && r.error) ? 1 : 0;
}

process.exitCode = await main(process.argv.slice(2));
