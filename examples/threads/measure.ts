// The figures for events and the thread pool, measured on examples/bench with
// autocannon (node_modules/.bin/autocannon), servers on free loopback ports,
// stopped by pid:
//   1. /test with and without one empty listener (`app.on(() => {})`), rounds alternating;
//   2. /test-worker (pool size = CPU count) against /test-cpu;
//   3. /test p99 at a fixed probe rate, alone and while a second autocannon loads /test-worker (and, for contrast, /test-cpu), per round; medians.
// node --conditions=source --import tsx examples/threads/measure.ts [--runtimes node,deno,bun] [--rounds 2] [-c 50] [-d 5]
import { execFile } from 'node:child_process';
import { cpus } from 'node:os';
import { cpuDeltaUs, treeCpuUs } from '../../bench/lib/proc-stats.ts';
import { type Child, freePort, processTree, resolveBin, startChild, stopChild } from '../../dev/proc.ts';

const args = process.argv.slice(2);
const flag = (name: string, fallback: string) => {
  const i = args.indexOf(name);
  return i === -1 ? fallback : args[i + 1];
};
const RUNTIMES = flag('--runtimes', 'node,deno,bun').split(',');
const ROUNDS = Number(flag('--rounds', '2'));
const CONNECTIONS = Number(flag('-c', '50'));
const DURATION = Number(flag('-d', '5'));
const PARTS = flag('--parts', 'listener,worker,latency').split(',');
const PROBE_RATE = Number(flag('--probe-rate', '1000'));
// Extra environment for every server: --env NAME=value (Deno runs with --no-maglev, as README.md asks of pool users)
const EXTRA_ENV: Record<string, string> = Object.fromEntries(args.flatMap((a, i) => (a === '--env' ? [args[i + 1].split(/=(.*)/s).slice(0, 2)] : [])));

interface Server {
  url: string;
  child: Child;
}

async function startBench(runtime: string, env: Record<string, string>): Promise<Server> {
  const port = await freePort();
  const entry = `examples/bench/${runtime}.ts`;
  const cmd =
    runtime === 'node'
      ? { bin: resolveBin('node'), args: ['--conditions=source', '--import', 'tsx', entry] }
      : runtime === 'deno'
        ? { bin: resolveBin('deno'), args: ['run', '--allow-net', '--allow-env', '--allow-read', '--allow-sys=setPriority', '--v8-flags=--no-maglev', entry] }
        : { bin: resolveBin('bun'), args: [entry] };
  const child = startChild(cmd.bin, cmd.args, { PORT: String(port), HOST: '127.0.0.1', NO_COLOR: '1', DENO_NO_UPDATE_CHECK: '1', ...EXTRA_ENV, ...env });
  const url = `http://127.0.0.1:${port}`;
  for (let i = 0; i < 300; i++) {
    if (child.exited) throw new Error(`${runtime} exited: ${child.output()}`);
    try {
      const res = await fetch(`${url}/test`);
      await res.arrayBuffer();
      if (res.ok) return { url, child };
    } catch {
      // not yet
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`${runtime} did not start`);
}

interface Load {
  rps: number;
  p50: number;
  p99: number;
  requests: number;
  non2xx: number;
  errors: number;
  cpuUsPerReq?: number;
}

function autocannon(url: string, connections: number, duration: number, rate?: number): Promise<Load> {
  return new Promise((resolve, reject) => {
    execFile(
      process.execPath,
      [resolveBin('autocannon'), '-j', '-c', String(connections), '-d', String(duration), ...(rate ? ['-R', String(rate)] : []), url],
      { maxBuffer: 16 << 20 },
      (error, stdout) => {
        if (error) return reject(error);
        const r = JSON.parse(stdout);
        resolve({
          rps: r.requests.average,
          p50: r.latency.p50,
          p99: r.latency.p99,
          requests: r.requests.total,
          non2xx: r.non2xx,
          errors: r.errors + r.timeouts,
        });
      },
    );
  });
}

/** One load run with the server's own CPU time per request (utime+stime of its process tree). */
async function measure(server: Server, path: string, connections = CONNECTIONS, duration = DURATION): Promise<Load> {
  await autocannon(server.url + path, connections, 1); // warm-up
  const pids = processTree(server.child.pid);
  const before = treeCpuUs(pids);
  const load = await autocannon(server.url + path, connections, duration);
  load.cpuUsPerReq = cpuDeltaUs(before, treeCpuUs(processTree(server.child.pid))) / Math.max(1, load.requests);
  return load;
}

const fmt = (l: Load) =>
  `${Math.round(l.rps)} req/s, p50 ${l.p50} ms, p99 ${l.p99} ms${l.cpuUsPerReq === undefined ? '' : `, ${l.cpuUsPerReq.toFixed(1)} µs CPU/req`}${l.non2xx || l.errors ? `, non2xx ${l.non2xx}, errors ${l.errors}` : ''}`;
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

const results: Record<string, unknown> = { cpus: cpus().length, connections: CONNECTIONS, durationS: DURATION, rounds: ROUNDS };

for (const runtime of RUNTIMES) {
  if (PARTS.includes('listener')) {
    // Both servers run side by side; only the one under load uses the CPU.
    const off = await startBench(runtime, {});
    const on = await startBench(runtime, { BENCH_LISTENER: '1' });
    const offRuns: Load[] = [];
    const onRuns: Load[] = [];
    try {
      for (let round = 0; round < ROUNDS; round++) {
        // ABBA: alternate which goes first, so drift on the shared machine hits both.
        const order = round % 2 === 0 ? ([off, on] as const) : ([on, off] as const);
        for (const server of order) (server === off ? offRuns : onRuns).push(await measure(server, '/test'));
      }
    } finally {
      await stopChild(off.child);
      await stopChild(on.child);
    }
    const rpsRatio = median(onRuns.map((r) => r.rps)) / median(offRuns.map((r) => r.rps));
    const cpuRatio = median(offRuns.map((r) => r.cpuUsPerReq!)) / median(onRuns.map((r) => r.cpuUsPerReq!));
    console.log(`\n${runtime} listener: /test`);
    offRuns.forEach((r, i) => console.log(`  off #${i + 1}: ${fmt(r)}`));
    onRuns.forEach((r, i) => console.log(`  on  #${i + 1}: ${fmt(r)}`));
    console.log(`  on/off req/s (median) ${rpsRatio.toFixed(3)}; off/on CPU per request ${cpuRatio.toFixed(3)}`);
    results[`${runtime}:listener`] = { off: offRuns, on: onRuns, rpsRatio, cpuRatio };
  }

  if (PARTS.includes('worker') || PARTS.includes('latency')) {
    const server = await startBench(runtime, { BENCH_WORKERS: '1' });
    try {
      if (PARTS.includes('worker')) {
        const cpuRuns: Load[] = [];
        const workerRuns: Load[] = [];
        for (let round = 0; round < ROUNDS; round++) {
          const order = round % 2 === 0 ? ['/test-cpu', '/test-worker'] : ['/test-worker', '/test-cpu'];
          for (const path of order) (path === '/test-cpu' ? cpuRuns : workerRuns).push(await measure(server, path));
        }
        const ratio = median(workerRuns.map((r) => r.rps)) / median(cpuRuns.map((r) => r.rps));
        console.log(`\n${runtime} thread pool (size ${cpus().length}):`);
        cpuRuns.forEach((r, i) => console.log(`  /test-cpu    #${i + 1}: ${fmt(r)}`));
        workerRuns.forEach((r, i) => console.log(`  /test-worker #${i + 1}: ${fmt(r)}`));
        console.log(`  /test-worker / /test-cpu req/s (median) ${ratio.toFixed(3)}`);
        results[`${runtime}:worker`] = { cpu: cpuRuns, worker: workerRuns, ratio };
      }
      if (PARTS.includes('latency')) {
        // /test probed at a fixed rate (10 connections, PROBE_RATE req/s in all) alone, then while a
        // second autocannon saturates another route: what a client of the light route sees.
        const light = 10;
        const under = async (path: string) => {
          const background = autocannon(server.url + path, CONNECTIONS, DURATION + 2);
          await new Promise((r) => setTimeout(r, 1000));
          const fg = await autocannon(`${server.url}/test`, light, DURATION, PROBE_RATE);
          const bg = await background;
          return { fg, bg };
        };
        const rounds: { alone: Load; withWorker: { fg: Load; bg: Load }; withCpu: { fg: Load; bg: Load } }[] = [];
        for (let round = 0; round < ROUNDS; round++) {
          const alone = await autocannon(`${server.url}/test`, light, DURATION, PROBE_RATE);
          rounds.push({ alone, withWorker: await under('/test-worker'), withCpu: await under('/test-cpu') });
        }
        console.log(`\n${runtime} /test latency (-c ${light} -R ${PROBE_RATE}; background -c ${CONNECTIONS}):`);
        rounds.forEach(({ alone, withWorker, withCpu }, i) => {
          console.log(`  #${i + 1} alone:                     ${fmt(alone)}`);
          console.log(`  #${i + 1} while /test-worker loaded: ${fmt(withWorker.fg)}   [background /test-worker ${Math.round(withWorker.bg.rps)} req/s]`);
          console.log(`  #${i + 1} while /test-cpu loaded:    ${fmt(withCpu.fg)}   [background /test-cpu ${Math.round(withCpu.bg.rps)} req/s]`);
        });
        const p99 = (pick: (r: (typeof rounds)[number]) => Load) => median(rounds.map((r) => pick(r).p99));
        const alone = p99((r) => r.alone);
        console.log(
          `  median p99: alone ${alone} ms, /test-worker loaded ${p99((r) => r.withWorker.fg)} ms (${(p99((r) => r.withWorker.fg) / alone).toFixed(2)}×), /test-cpu loaded ${p99((r) => r.withCpu.fg)} ms (${(p99((r) => r.withCpu.fg) / alone).toFixed(2)}×)`,
        );
        results[`${runtime}:latency`] = rounds;
      }
    } finally {
      await stopChild(server.child);
    }
  }
}

if (args.includes('--json')) console.log(JSON.stringify(results));
