// What Rove's `echo` costs on Node over the bare server, layer by layer: the bare server
// (bench/raw/node.ts), the same bare server with the promise hops of a fetch-style handler, Rove's
// smallest app, and the bench app. Each round starts every server afresh, pinned to the first core,
// with autocannon on the last.
//
//   node --import tsx bench/node-echo-layers.ts [--rounds 5] [--duration 3] [--warmup 1]
import { execFileSync } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { ROOT, resolveBin, startChild, stopChild } from '../dev/proc.ts';
import { runLoad } from './lib/load.ts';
import { pinnedCommand, setUpPinning } from './lib/pin.ts';
import { median } from './lib/result.ts';
import { SCENARIOS } from './lib/scenarios.ts';

const args = process.argv.slice(2);
const flag = (name: string, fallback: string) => {
  const i = args.indexOf(`--${name}`);
  return i >= 0 && args[i + 1] ? args[i + 1]! : fallback;
};
const rounds = Number(flag('rounds', '5'));
const duration = Number(flag('duration', '3'));
const warmup = Number(flag('warmup', '1'));
const dir = join(ROOT, 'tmp/node-echo-layers');
mkdirSync(dir, { recursive: true });

// The bare server's /json, with what a fetch-style handler adds on the way: the body read as one
// promise (data, end, error and close listeners, as Rove's adapter reads it), an async handler
// that awaits it, a .then where the framework turns the value into its answer, and a .then where
// the listener writes it.
const PROMISES = `import { createServer } from 'node:http';
function readJson(req) {
  return new Promise((resolve, reject) => {
    const chunks = []; let size = 0;
    req.on('data', (c) => { size += c.byteLength; chunks.push(c); });
    req.on('end', () => { try { resolve(JSON.parse((chunks.length === 1 ? chunks[0] : Buffer.concat(chunks, size)).toString('utf8'))); } catch (e) { reject(e); } });
    req.on('error', () => reject(new Error('ended early')));
    req.on('close', () => { if (!req.complete) reject(new Error('ended early')); });
  });
}
const handler = async (req) => JSON.stringify(await readJson(req));
const chain = (req) => handler(req).then((body) => body, () => null);
const send = (res, body) => { res.writeHead(200, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) }); res.end(body); };
createServer((req, res) => {
  if (req.url === '/test') return send(res, JSON.stringify({ hello: 'world!' }));
  chain(req).then((body) => send(res, body), () => {});
}).listen(Number(process.env.PORT), '127.0.0.1');
`;
const ROVE_SMALL = `import { serve } from '${ROOT}/adapters/node/index.ts';
import { App } from '${ROOT}/src/index.ts';
const app = new App();
app.get('/test', (c) => c.json({ hello: 'world!' }));
app.post('/json', async (c) => c.json(await c.req.json()));
serve(app, { port: Number(process.env.PORT), hostname: '127.0.0.1', onListen: () => {} });
`;

function bundle(entry: string, out: string): string {
  execFileSync(
    resolveBin('esbuild'),
    [
      entry,
      '--bundle',
      '--format=esm',
      '--platform=node',
      '--target=node20',
      '--log-level=warning',
      "--banner:js=import { createRequire as __bundleRequire } from 'node:module'; const require = __bundleRequire(import.meta.url);",
      `--outfile=${out}`,
    ],
    { cwd: ROOT },
  );
  return out;
}
writeFileSync(join(dir, 'promises.mjs'), PROMISES);
writeFileSync(join(dir, 'rove-small.ts'), ROVE_SMALL);
const servers = [
  { name: 'raw', file: bundle(join(ROOT, 'bench/raw/node.ts'), join(dir, 'raw.mjs')) },
  { name: 'raw + promise hops', file: join(dir, 'promises.mjs') },
  { name: 'Rove, two routes', file: bundle(join(dir, 'rove-small.ts'), join(dir, 'rove-small.mjs')) },
  { name: 'Rove, bench app', file: bundle(join(ROOT, 'examples/bench/node.ts'), join(dir, 'rove-bench.mjs')) },
];

/** A process's user and system CPU in clock ticks (all its threads), and its minor page faults. */
function cpuTicks(pid: number): { user: number; sys: number; minflt: number } {
  const text = readFileSync(`/proc/${pid}/stat`, 'utf8');
  const f = text.slice(text.lastIndexOf(')') + 2).split(' ');
  return { user: Number(f[11]), sys: Number(f[12]), minflt: Number(f[7]) };
}

async function ready(port: number): Promise<void> {
  for (let i = 0; i < 100; i++) {
    const ok = await fetch(`http://127.0.0.1:${port}/test`).then(
      (x) => x.ok,
      () => false,
    );
    if (ok) return;
    await sleep(50);
  }
  throw new Error(`nothing answers on port ${port}`);
}

// The report's echo request.
const request = SCENARIOS.find((s) => s.id === 'echo')!.request;

/** One server, started afresh: req/s, and per request its user and system CPU (µs) and page faults. */
async function measure(file: string, port: number) {
  const cmd = pinnedCommand(resolveBin('node'), [file]);
  const child = startChild(cmd.bin, cmd.args, { PORT: String(port), HOST: '127.0.0.1', NODE_ENV: 'production' });
  try {
    await ready(port);
    await runLoad({ port, request, connections: 100, pipelining: 10, durationS: warmup });
    const before = cpuTicks(child.pid);
    const load = await runLoad({ port, request, connections: 100, pipelining: 10, durationS: duration });
    const after = cpuTicks(child.pid);
    const perRequest = (ticks: number) => (ticks * 1e4) / load.requests; // 100 ticks a second, in µs
    return {
      rps: load.rpsAvg,
      user: perRequest(after.user - before.user),
      sys: perRequest(after.sys - before.sys),
      faults: (after.minflt - before.minflt) / load.requests,
      failed: load.non2xx > 0 || load.errors > 0 ? `${load.non2xx} non-2xx, ${load.errors} errors` : '',
    };
  } finally {
    await stopChild(child);
  }
}

setUpPinning('auto');
const results = new Map<string, Awaited<ReturnType<typeof measure>>[]>();
let port = 9400;
for (let r = 0; r < rounds; r++) {
  // Rotate the order, so no server always runs first after a quiet spell.
  const order = servers.map((_, i) => servers[(i + r) % servers.length]!);
  for (const s of order) {
    const row = await measure(s.file, ++port);
    if (row.failed) throw new Error(`${s.name}: ${row.failed}`);
    (results.get(s.name) ?? results.set(s.name, []).get(s.name)!).push(row);
    console.log(
      `round ${r + 1} ${s.name.padEnd(20)} ${row.rps.toFixed(0).padStart(7)} req/s, user ${row.user.toFixed(1)} µs, system ${row.sys.toFixed(1)} µs, page faults ${row.faults.toFixed(3)} a request`,
    );
  }
}

const spread = (xs: number[], digits = 2) => `${median(xs).toFixed(digits)} (${Math.min(...xs).toFixed(digits)}–${Math.max(...xs).toFixed(digits)})`;
const raw = results.get('raw')!;
console.log('\n| server | req/s over raw | user µs | system µs | page faults |\n| --- | ---: | ---: | ---: | ---: |');
for (const [name, rows] of results) {
  const ratio = rows.map((x, i) => x.rps / raw[i]!.rps);
  console.log(
    `| ${name} | ${spread(ratio)} | ${spread(rows.map((x) => x.user))} | ${spread(rows.map((x) => x.sys))} | ${spread(
      rows.map((x) => x.faults),
      3,
    )} |`,
  );
}
