// npm run bench:realtime -- [--runtime node,deno] [--framework rove,hono,raw] [--scenario sse,ws-echo]
//   [--duration 10] [--warmup 2] [--rounds 3] [--connections 50]
// Starts each runtime × framework server on a free loopback port, runs the load client
// (load.ts) against each in turn, round by round, and prints the median of the rounds. Run it under the bench lock:
//   flock /work/bench.lock npm run bench:realtime -- --duration 2 --warmup 1 --rounds 1
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type Child, freePort, killAllNow, ROOT, resolveBin, startChild, stopAll, stopChild } from '../lib/proc.ts';
import { bundleWorker, workerdConfig } from '../lib/workerd.ts';
import { type LoadResult, sseLoad, wsEchoLoad } from './load.ts';

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

function list<T extends string>(value: string | undefined, all: readonly T[]): T[] {
  if (value === undefined) return [...all];
  const picked = value.split(',') as T[];
  for (const p of picked) if (!all.includes(p)) throw new Error(`unknown ${p}; one of ${all.join(', ')}`);
  return picked;
}

async function launch(runtime: Runtime, framework: Framework, scratch: string): Promise<{ child: Child; url: string }> {
  const port = await freePort();
  const entry = `bench/realtime/${framework}-${FILE[runtime]}.ts`;
  let bin: string;
  let args: string[];
  switch (runtime) {
    case 'node':
      [bin, args] = [resolveBin('node'), ['--conditions=source', '--import', 'tsx', entry]];
      break;
    case 'deno':
      [bin, args] = [resolveBin('deno'), ['run', ...DENO, entry]];
      break;
    case 'deno-deploy':
      [bin, args] = [resolveBin('deno'), ['serve', ...DENO, '--host', '127.0.0.1', '--port', String(port), entry]];
      break;
    case 'bun':
      [bin, args] = [resolveBin('bun'), [entry]];
      break;
    case 'workerd': {
      bundleWorker(join(ROOT, entry), join(scratch, 'worker.js'));
      writeFileSync(join(scratch, 'config.capnp'), workerdConfig({ port, module: 'worker.js' }));
      [bin, args] = [resolveBin('workerd'), ['serve', join(scratch, 'config.capnp')]];
      break;
    }
  }
  const child = startChild(bin, args, { PORT: String(port), HOST: '127.0.0.1', NODE_ENV: 'production', NO_COLOR: '1', DENO_NO_UPDATE_CHECK: '1' });
  const url = `http://127.0.0.1:${port}/`;
  const deadline = Date.now() + 30_000;
  for (;;) {
    if (child.exited) throw new Error(`${runtime}/${framework} exited:\n${child.output()}`);
    try {
      const res = await fetch(url, { signal: AbortSignal.timeout(2000) });
      await res.arrayBuffer();
      if (res.ok) return { child, url };
    } catch {
      // not yet
    }
    if (Date.now() > deadline) {
      await stopChild(child);
      throw new Error(`${runtime}/${framework} not ready in 30 s:\n${child.output()}`);
    }
    await new Promise((r) => setTimeout(r, 100));
  }
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

async function main(): Promise<void> {
  const f = flags(process.argv.slice(2));
  const runtimes = list(f.runtime, RUNTIMES);
  const frameworks = list(f.framework, FRAMEWORKS);
  const scenarios = list(f.scenario, SCENARIOS);
  const load = {
    connections: Number(f.connections ?? 50),
    warmupMs: Number(f.warmup ?? 2) * 1000,
    durationMs: Number(f.duration ?? 10) * 1000,
  };
  const rounds = Number(f.rounds ?? 3);
  const base = join(tmpdir(), 'rove-bench-realtime');
  mkdirSync(base, { recursive: true });
  const results: { runtime: Runtime; scenario: Scenario; framework: Framework; perSecond: number | null; rounds: number[]; errors: number; note?: string }[] =
    [];
  for (const runtime of runtimes) {
    // Every framework's server runs at once, and the rounds alternate between them (the order
    // rotating each round): round i of Rove and round i of Hono are measured a few seconds apart,
    // so whatever else the machine does shifts both alike. An idle server costs next to nothing.
    const servers: { framework: Framework; child: Child; url: string; scratch: string }[] = [];
    try {
      for (const framework of frameworks) {
        const scratch = mkdtempSync(join(base, `${runtime}-${framework}-`));
        servers.push({ framework, scratch, ...(await launch(runtime, framework, scratch)) });
      }
      for (const scenario of scenarios) {
        const taking = servers.filter((s) => missing(runtime, s.framework, scenario) === undefined);
        for (const s of servers) {
          const note = missing(runtime, s.framework, scenario);
          if (note !== undefined) results.push({ runtime, scenario, framework: s.framework, perSecond: null, rounds: [], errors: 0, note });
        }
        const figures = new Map<Framework, number[]>(taking.map((s) => [s.framework, []]));
        const errors = new Map<Framework, number>(taking.map((s) => [s.framework, 0]));
        for (let r = 0; r < rounds; r++) {
          for (let k = 0; k < taking.length; k++) {
            const s = taking[(r + k) % taking.length];
            const out: LoadResult = await (scenario === 'sse' ? sseLoad : wsEchoLoad)({ url: s.url, ...load });
            figures.get(s.framework)?.push(Math.round(out.perSecond));
            errors.set(s.framework, (errors.get(s.framework) ?? 0) + out.errors);
          }
        }
        for (const s of taking) {
          const rs = figures.get(s.framework) ?? [];
          const perSecond = median(rs);
          const errs = errors.get(s.framework) ?? 0;
          results.push({ runtime, scenario, framework: s.framework, perSecond, rounds: rs, errors: errs });
          console.log(
            `${runtime.padEnd(12)} ${scenario.padEnd(8)} ${s.framework.padEnd(5)} ${String(perSecond).padStart(9)}/s  rounds ${rs.join(', ')}${errs ? `  errors ${errs}` : ''}`,
          );
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
  if (f.out) writeFileSync(f.out, `${JSON.stringify({ load, rounds, results }, null, 2)}\n`);
}

// Interrupted (Ctrl-C, a timeout): stop the servers started, by pid, before leaving.
for (const sig of ['SIGINT', 'SIGTERM'] as const) {
  process.once(sig, () => {
    stopAll().finally(() => process.exit(130));
  });
}
process.on('exit', killAllNow);

main().then(
  () => process.exit(0),
  (error) => {
    console.error(error);
    process.exit(1);
  },
);
