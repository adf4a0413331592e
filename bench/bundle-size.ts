// npm run bench:size -- [--json] [--into FILE.json]
// Bundles the two-route app written with Rove and with Hono (bench/size/), and
// examples/hello's worker, as a Workers build would (esbuild, minified,
// --platform=neutral, workerd/worker conditions), and prints their sizes.
//   --json            print the figures as JSON instead of a table
//   --into FILE.json  also store them in an existing bench result (its
//                     "bundleSizes" section) and re-render its reports
import { existsSync, readFileSync } from 'node:fs';
import { relative } from 'node:path';
import { measureBundleSizes } from './lib/bundle-size.ts';
import type { BenchResult } from './lib/result.ts';
import { bundleSizesText } from './report/summary.ts';
import { writeReports } from './report/write.ts';

const USAGE = `Usage: npm run bench:size -- [--json] [--into FILE.json]

  --json            print the figures as JSON
  --into FILE.json  store them in that bench result and re-render its reports
`;

async function main(argv: string[]): Promise<number> {
  let json = false;
  let into: string | undefined;
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i]!;
    if (a === '--json') json = true;
    else if (a === '--into') into = argv[++i];
    else if (a.startsWith('--into=')) into = a.slice('--into='.length);
    else if (a === '--help' || a === '-h') {
      console.log(USAGE);
      return 0;
    } else {
      console.error(`bench:size: unexpected argument "${a}"\n\n${USAGE}`);
      return 2;
    }
  }
  if (into !== undefined && (!into || !existsSync(into))) {
    console.error(`bench:size: --into needs an existing bench result (FILE.json)`);
    return 2;
  }
  const sizes = await measureBundleSizes();
  console.log(json ? JSON.stringify(sizes, null, 2) : bundleSizesText(sizes));
  if (into) {
    const result = JSON.parse(readFileSync(into, 'utf8')) as BenchResult;
    result.bundleSizes = sizes;
    const w = writeReports(result, into);
    if (!json)
      console.log(`\nwrote ${relative(process.cwd(), w.json) || w.json}, ${relative(process.cwd(), w.markdown)} and ${relative(process.cwd(), w.html)}`);
  }
  return sizes.bundles.some((b) => b.error) ? 1 : 0;
}

process.exitCode = await main(process.argv.slice(2));
