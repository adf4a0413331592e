// npm run bench:realtime -- [--runtime node,deno] [--framework rove,hono,raw] [--scenario sse,ws-echo]
//   [--duration 10] [--warmup 2] [--rounds 3] [--connections 50] [--pin auto|off] [--out file.json]
//   [--client raw|ws] [--together] [--cpu-prof DIR]
// Starts each runtime × framework server on a free loopback port, runs the load client
// (load.ts) against each in turn, round by round, and prints the median of the rounds: the rate
// and the server's own CPU time per message (its process tree's utime+stime over the measured
// window), with Rove's ratios over Hono and raw per round. Run it under the bench lock:
//   flock /work/bench.lock npm run bench:realtime -- --duration 2 --warmup 1 --rounds 1
// --cpu-prof DIR writes a CPU profile of each node, deno and bun server to DIR/<runtime>-<framework>/
// (summarise one with `node --import tsx bench/profile.ts FILE.cpuprofile`).
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type Child, freePort, processTree, ROOT, resolveBin, startChild, stopAll, stopChild } from '../../dev/proc.ts';
import { bundleWorker, workerdConfig } from '../../dev/workerd.ts';
import { pickList } from '../lib/args.ts';
import { firstAnswer } from '../lib/http.ts';
import { interruptible } from '../lib/interrupt.ts';
import { pinnedCommand, pinningText, setUpPinning } from '../lib/pin.ts';
import { cpuDeltaUs, treeCpuUs } from '../lib/proc-stats.ts';
import { type LoadResult, sseLoad, wsEchoLoad } from './load.ts';
import { type Comparison, compare, comparisonText } from './ratios.ts';

const RUNTIMES = ['node', 'deno', 'bun', 'deno-deploy', 'workerd'] as const;
const FRAMEWORKS = ['rove', 'hono', 'raw'] as const;
const SCENARIOS = ['sse', 'ws-echo'] as const;
type Runtime = (typeof RUNTIMES)[number];
type Framework = (typeof FRAMEWORKS)[number];
type Scenario = (typeof SCENARIOS)[number];

const FILE: Record<Runtime, string> = { node: 'node', deno: 'deno', bun: 'bun', 'deno-deploy': 'deploy', workerd: 'worker' };
const DENO = ['--allow-net', '--allow-env', '--allow-read'];

/** Where a framework has no server side for a scenario on a runtime. */
function missing(runtime: Runtime, framework: Framework, scenario: Scenario): string | undefined {
  if (framework === 'hono' && runtime === 'node' && scenario === 'ws-echo') return 'Hono needs @hono/node-ws on Node';
  return undefined;
}

function flags(argv: string[]): Record<string, string> {
  const out: Record<string, string> = {};
  for (let i = 0; i < argv.length; i++) if (argv[i].startsWith('--')) out[argv[i].slice(2)] = argv[i + 1]?.startsWith('--') ? 'true' : (argv[++i] ?? 'true');
  return out;
}

/** A runtime's flags for a CPU profile written at exit (SIGTERM exits through the preload). */
function profileFlags(runtime: Runtime, dir: string | undefined): string[] {
  if (dir === undefined) return [];
  switch (runtime) {
    case 'node':
      return ['--import', './bench/lib/exit-on-sigterm.mjs', '--cpu-prof', '--cpu-prof-dir', dir];
    case 'deno':
      return ['--preload', './bench/lib/exit-on-sigterm-deno.ts', '--cpu-prof', `--cpu-prof-dir=${dir}`];
    case 'bun':
      return ['--preload', './bench/lib/exit-on-sigterm.mjs', '--cpu-prof', `--cpu-prof-dir=${dir}`];
    // `deno serve` (2.9) writes no profile when stopped this way; workerd has no such flag.
    case 'deno-deploy':
    case 'workerd':
      return [];
  }
}

async function launch(runtime: Runtime, framework: Framework, scratch: string, profileDir?: string): Promise<{ child: Child; url: string }> {
  const port = await freePort();
  const entry = `bench/realtime/${framework}-${FILE[runtime]}.ts`;
  const prof = profileFlags(runtime, profileDir === undefined ? undefined : join(profileDir, `${runtime}-${framework}`));
  let bin: string;
  let args: string[];
  switch (runtime) {
    case 'node':
      [bin, args] = [resolveBin('node'), ['--conditions=source', ...prof, '--import', 'tsx', entry]];
      break;
    case 'deno':
      [bin, args] = [resolveBin('deno'), ['run', ...DENO, ...prof, entry]];
      break;
    case 'deno-deploy':
      [bin, args] = [resolveBin('deno'), ['serve', ...DENO, ...prof, '--host', '127.0.0.1', '--port', String(port), entry]];
      break;
    case 'bun':
      [bin, args] = [resolveBin('bun'), [...prof, entry]];
      break;
    case 'workerd': {
      bundleWorker(join(ROOT, entry), join(scratch, 'worker.js'));
      writeFileSync(join(scratch, 'config.capnp'), workerdConfig({ port, module: 'worker.js' }));
      [bin, args] = [resolveBin('workerd'), ['serve', join(scratch, 'config.capnp')]];
      break;
    }
  }
  // Pinned like the main bench: servers on their core(s), this runner (the load client) on the last one.
  const cmd = pinnedCommand(bin, args);
  const child = startChild(cmd.bin, cmd.args, { PORT: String(port), HOST: '127.0.0.1', NODE_ENV: 'production', NO_COLOR: '1', DENO_NO_UPDATE_CHECK: '1' });
  const url = `http://127.0.0.1:${port}/`;
  try {
    // Any answer but a 5xx: the load test's readiness probe.
    const res = await firstAnswer(port, { method: 'GET', path: '/' }, child, 30_000, 100);
    if (res.status >= 500) throw new Error(`answered ${res.status}`);
    return { child, url };
  } catch (error) {
    await stopChild(child);
    throw new Error(`${runtime}/${framework} not ready: ${(error as Error).message}`);
  }
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

async function main(): Promise<void> {
  const f = flags(process.argv.slice(2));
  const runtimes = pickList('runtime', f.runtime, RUNTIMES);
  const frameworks = pickList('framework', f.framework, FRAMEWORKS);
  const scenarios = pickList('scenario', f.scenario, SCENARIOS);
  const load: { connections: number; warmupMs: number; durationMs: number; client?: 'raw' | 'ws' } = {
    connections: Number(f.connections ?? 50),
    warmupMs: Number(f.warmup ?? 2) * 1000,
    durationMs: Number(f.duration ?? 10) * 1000,
  };
  const rounds = Number(f.rounds ?? 3);
  const together = f.together === 'true';
  if (f.client !== undefined && f.client !== 'raw' && f.client !== 'ws') throw new Error(`--client takes raw or ws, got "${f.client}"`);
  load.client = f.client === 'ws' ? 'ws' : 'raw';
  if (f.pin !== undefined && f.pin !== 'auto' && f.pin !== 'off') throw new Error(`--pin takes auto or off, got "${f.pin}"`);
  const pinning = setUpPinning(f.pin === 'off' ? 'off' : 'auto');
  console.log(`pinning: ${pinningText(pinning)}; ws-echo client: ${load.client}; ${together ? 'frameworks loaded together' : 'frameworks alternating'}`);
  const base = join(tmpdir(), 'rove-bench-realtime');
  mkdirSync(base, { recursive: true });
  const results: {
    runtime: Runtime;
    scenario: Scenario;
    framework: Framework;
    perSecond: number | null;
    rounds: number[];
    errors: number;
    note?: string;
    /** Server CPU time (process tree, utime+stime) per event or round trip: median, and per round. */
    cpuUsPerMessage?: number | null;
    roundsCpuUsPerMessage?: (number | null)[];
    /** Per round: the load client's (this process) and the server's CPU over the window, % of one core. */
    roundsBusyPercent?: { client: number; server: number }[];
  }[] = [];
  const comparisons: { runtime: Runtime; scenario: Scenario; over: Framework; rate: Comparison | null; cpu: Comparison | null }[] = [];
  for (const runtime of runtimes) {
    // Every framework's server runs at once, and the rounds alternate between them (the order
    // rotating each round): round i of Rove and round i of Hono are measured a few seconds apart,
    // so whatever else the machine does shifts both alike. An idle server costs next to nothing.
    const servers: { framework: Framework; child: Child; url: string; scratch: string }[] = [];
    try {
      for (const framework of frameworks) {
        const scratch = mkdtempSync(join(base, `${runtime}-${framework}-`));
        servers.push({ framework, scratch, ...(await launch(runtime, framework, scratch, f['cpu-prof'])) });
      }
      for (const scenario of scenarios) {
        const taking = servers.filter((s) => missing(runtime, s.framework, scenario) === undefined);
        for (const s of servers) {
          const note = missing(runtime, s.framework, scenario);
          if (note !== undefined) results.push({ runtime, scenario, framework: s.framework, perSecond: null, rounds: [], errors: 0, note });
        }
        const figures = new Map<Framework, number[]>(taking.map((s) => [s.framework, []]));
        const errors = new Map<Framework, number>(taking.map((s) => [s.framework, 0]));
        const cpus = new Map<Framework, (number | null)[]>(taking.map((s) => [s.framework, []]));
        const busyness = new Map<Framework, { client: number; server: number }[]>(taking.map((s) => [s.framework, []]));
        // One framework's share of a round: its load, its server's CPU over the measured window.
        const measure = async (s: (typeof taking)[number]) => {
          // The server's process tree (workerd: the workerd process) over the measured window only;
          // the tree is read again at the end for processes started during it, as the main bench does.
          let pids: number[] = [];
          let cpu0 = new Map<number, number>();
          let cpuUs: number | null = null;
          // The load client's own CPU (this process) and the wall time over the same window: a client
          // near 100 % of its core is the limit, and then the server idles part of the time.
          let client0 = process.cpuUsage();
          let wall0 = 0;
          let busy = { client: 0, server: 0 };
          const onWindow = (phase: 'start' | 'end') => {
            if (phase === 'start') {
              pids = processTree(s.child.pid);
              cpu0 = treeCpuUs(pids);
              client0 = process.cpuUsage();
              wall0 = performance.now();
            } else {
              cpuUs = cpuDeltaUs(cpu0, treeCpuUs([...new Set([...pids, ...processTree(s.child.pid)])]));
              const wallUs = (performance.now() - wall0) * 1000;
              const c = process.cpuUsage(client0);
              busy = { client: (c.user + c.system) / wallUs, server: cpuUs / wallUs };
            }
          };
          const out: LoadResult = await (scenario === 'sse' ? sseLoad : wsEchoLoad)({ url: s.url, ...load, onWindow });
          figures.get(s.framework)?.push(Math.round(out.perSecond));
          errors.set(s.framework, (errors.get(s.framework) ?? 0) + out.errors);
          cpus.get(s.framework)?.push(cpuUs !== null && out.messages > 0 ? Math.round((cpuUs / out.messages) * 1000) / 1000 : null);
          busyness.get(s.framework)?.push({ client: Math.round(busy.client * 100), server: Math.round(busy.server * 100) });
        };
        for (let r = 0; r < rounds; r++) {
          // --together: every framework under load at once, over the same window (the client's
          // figure is then the whole client's, shared by all).
          // The start order (which connections open first) rotates too, as the alternating order does.
          if (together) await Promise.all(taking.map((_, k) => measure(taking[(r + k) % taking.length])));
          else for (let k = 0; k < taking.length; k++) await measure(taking[(r + k) % taking.length]);
        }
        for (const s of taking) {
          const rs = figures.get(s.framework) ?? [];
          const perSecond = median(rs);
          const errs = errors.get(s.framework) ?? 0;
          const cs = cpus.get(s.framework) ?? [];
          const known = cs.filter((c): c is number => c !== null);
          const cpuUsPerMessage = known.length ? median(known) : null;
          const bs = busyness.get(s.framework) ?? [];
          results.push({
            runtime,
            scenario,
            framework: s.framework,
            perSecond,
            rounds: rs,
            errors: errs,
            cpuUsPerMessage,
            roundsCpuUsPerMessage: cs,
            roundsBusyPercent: bs,
          });
          console.log(
            `${runtime.padEnd(12)} ${scenario.padEnd(8)} ${s.framework.padEnd(5)} ${String(perSecond).padStart(9)}/s  rounds ${rs.join(', ')}` +
              `  cpu ${cpuUsPerMessage ?? '?'} µs/msg  rounds ${cs.map((c) => c ?? '?').join(', ')}` +
              `  busy % client/server ${bs.map((b) => `${b.client}/${b.server}`).join(', ')}${errs ? `  errors ${errs}` : ''}`,
          );
        }
        const rove = taking.find((s) => s.framework === 'rove');
        for (const over of ['hono', 'raw'] as const) {
          if (!rove || !taking.some((s) => s.framework === over)) continue;
          const rate = compare(figures.get('rove') ?? [], figures.get(over) ?? [], 'rate');
          const cpu = compare(cpus.get('rove') ?? [], cpus.get(over) ?? [], 'cpu');
          comparisons.push({ runtime, scenario, over, rate, cpu });
        }
      }
    } finally {
      for (const s of servers) {
        await stopChild(s.child);
        rmSync(s.scratch, { recursive: true, force: true });
      }
    }
  }
  console.log('\n| runtime | scenario | rove | hono | raw | rove/hono | rove/raw |\n|---|---|---:|---:|---:|---:|---:|');
  for (const runtime of runtimes) {
    for (const scenario of scenarios) {
      const get = (fw: Framework) => results.find((r) => r.runtime === runtime && r.scenario === scenario && r.framework === fw)?.perSecond ?? null;
      const [rove, hono, raw] = [get('rove'), get('hono'), get('raw')];
      const cell = (v: number | null) => (v === null ? '—' : String(v));
      const ratio = (a: number | null, b: number | null) => (a === null || b === null || b === 0 ? '—' : (a / b).toFixed(2));
      console.log(`| ${runtime} | ${scenario} | ${cell(rove)} | ${cell(hono)} | ${cell(raw)} | ${ratio(rove, hono)} | ${ratio(rove, raw)} |`);
    }
  }
  // Per-round ratios, higher is better for Rove: rate rove ÷ peer, CPU per message peer ÷ rove.
  console.log(
    '\n| runtime | scenario | rove cpu µs/msg | hono | raw | rove/hono rate | rove/hono cpu | rove/raw rate | rove/raw cpu |\n|---|---|---:|---:|---:|---|---|---|---|',
  );
  for (const runtime of runtimes) {
    for (const scenario of scenarios) {
      const cpuOf = (fw: Framework) => results.find((r) => r.runtime === runtime && r.scenario === scenario && r.framework === fw)?.cpuUsPerMessage ?? '—';
      const cmp = (over: Framework) => comparisons.find((c) => c.runtime === runtime && c.scenario === scenario && c.over === over);
      const [h, w] = [cmp('hono'), cmp('raw')];
      console.log(
        `| ${runtime} | ${scenario} | ${cpuOf('rove')} | ${cpuOf('hono')} | ${cpuOf('raw')} | ${comparisonText(h?.rate ?? null)} | ${comparisonText(h?.cpu ?? null)} | ${comparisonText(w?.rate ?? null)} | ${comparisonText(w?.cpu ?? null)} |`,
      );
    }
  }
  if (f.out) writeFileSync(f.out, `${JSON.stringify({ load, rounds, together, pinning, results, comparisons }, null, 2)}\n`);
}

// Interrupted (Ctrl-C, a timeout): stop the servers started, by pid, before leaving.
interruptible(() => void stopAll().finally(() => process.exit(130)));

main().then(
  () => process.exit(0),
  (error) => {
    console.error(error);
    process.exit(1);
  },
);
