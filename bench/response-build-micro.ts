/**
 * What building a Response with N headers costs, per way of passing them (a record in the init,
 * pairs, a Headers object, set or appended after), for 1–8 headers and a two-cookie case.
 * Runs as is on Deno, Bun and Node; `--workerd` (under Node) runs the same cases inside workerd.
 *
 *   node_modules/.bin/deno run bench/response-build-micro.ts
 *   node_modules/.bin/bun bench/response-build-micro.ts
 *   node --import tsx bench/response-build-micro.ts [--iter 200000] [--rounds 5]
 *   node --import tsx bench/response-build-micro.ts --workerd
 *   flock /work/bench.lock node --import tsx bench/response-build-micro.ts --http deno,bun,workerd [--duration 3]
 *
 * Prints µs per response, the median over rounds. `--http` (a load test: take the bench lock) serves each
 * case instead and prints the server's CPU µs per request, which adds what the runtime's server does with
 * the response (Deno, for one, serves some shapes of response on a faster path).
 */
import { allCases, loop } from './response-build/cases.ts';

type G = { Deno?: { args: string[]; version: { deno: string } }; Bun?: { version: string }; process?: { argv: string[]; version: string } };
const g = globalThis as unknown as G;
const argv = g.Deno ? g.Deno.args : g.process!.argv.slice(2);
const arg = (name: string, def: number) => {
  const i = argv.indexOf(`--${name}`);
  return i >= 0 ? Number(argv[i + 1]) : def;
};
const rounds = arg('rounds', 5);
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

function runtimeName(): string {
  if (g.Deno) return `deno ${g.Deno.version.deno}`;
  if (g.Bun) return `bun ${g.Bun.version}`;
  return `node ${g.process!.version}`;
}

/** Rows of [case, n, µs per response]. */
type Row = [string, number, number];

async function inProcess(iterations: number): Promise<Row[]> {
  const rows: Row[] = [];
  for (const [name, n, build] of allCases()) {
    loop(build, Math.min(iterations, 20_000)); // warm up
    const times: number[] = [];
    for (let r = 0; r < rounds; r++) {
      const t0 = performance.now();
      loop(build, iterations);
      times.push(((performance.now() - t0) * 1000) / iterations);
      // A turn of the event loop between rounds: Node frees a Response's body stream only then.
      await new Promise((r) => setTimeout(r, 0));
    }
    rows.push([name, n, median(times)]);
  }
  return rows;
}

function print(title: string, rows: Row[]): void {
  console.log(`# ${title}: µs per response, median of ${rounds} rounds`);
  const names = [...new Set(rows.map((r) => r[0]))];
  const ns = [...new Set(rows.filter((r) => !r[0].startsWith('cookies')).map((r) => r[1]))];
  console.log(['case'.padEnd(16), ...ns.map((n) => `n=${n}`.padStart(7))].join(''));
  for (const name of names) {
    const mine = rows.filter((r) => r[0] === name);
    const cells = mine.length === 1 ? [`${mine[0][2].toFixed(2)} (2 cookies + type)`] : mine.map((r) => r[2].toFixed(2).padStart(7));
    console.log([name.padEnd(16), ...cells].join(''));
  }
}

const httpAt = argv.indexOf('--http');
if (httpAt >= 0) {
  const { runHttp } = await import('./response-build/http-run.ts');
  const paths = ['/record/3', '/set-after/3', '/record/8', '/set-after/8', '/cookies-pairs/3', '/cookies-after/3', '/empty-record/5', '/empty-after/5'];
  const rows = await runHttp(argv[httpAt + 1].split(','), paths, arg('duration', 3), rounds);
  console.log(`# server CPU µs per request, median of ${rounds} rounds (min–max)`);
  for (const [runtime, path, med, lo, hi] of rows)
    console.log(`${runtime.padEnd(8)} ${path.padEnd(18)} ${med.toFixed(2).padStart(7)}  (${lo.toFixed(2)}–${hi.toFixed(2)})`);
} else if (argv.includes('--workerd')) {
  const { runInWorkerd } = await import('./response-build/workerd-run.ts');
  print('workerd', await runInWorkerd(arg('iter', 50_000), rounds));
} else {
  print(runtimeName(), await inProcess(arg('iter', g.Deno || g.Bun ? 200_000 : 20_000)));
}
