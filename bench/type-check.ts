// Type-check cost of a generated 200-route app, Rove beside Hono on the same routes:
// `tsc --noEmit --extendedDiagnostics`, each app against the library's published .d.ts
// (Rove's dist/, built by `npm run build`; Hono from node_modules). An import-only file
// is checked too, so the figures can be read as "the library" and "the routes on top".
//
//   node --import tsx bench/type-check.ts [--routes 200] [--rounds 5] [--out FILE.md]   (the table alone; docs/benchmarks/types.md quotes it)
import { execFileSync } from 'node:child_process';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { ROOT } from '../dev/proc.ts';
import { CONTRACT_HEADS, contractApp, honoRpcApp } from './contract-types.ts';

const { values } = parseArgs({
  options: { routes: { type: 'string', default: '200' }, rounds: { type: 'string', default: '5' }, out: { type: 'string' } },
});
const ROUTES = Number(values.routes);
const ROUNDS = Number(values.rounds);
// Inside the repo, so `rove` resolves to this package's own exports (dist types) and `hono` to node_modules.
const DIR = join(ROOT, 'bench/.type-check');

/** The same routes for both: static, one param, two params, a constraint, an optional param, a wildcard. */
export function routes(n: number): string[] {
  const out: string[] = [];
  for (let i = 0; i < n; i++) {
    switch (i % 6) {
      case 0:
        out.push(`app.get('/r${i}', (c) => c.json({ ok: true }));`);
        break;
      case 1:
        out.push(`app.get('/r${i}/:id', (c) => c.json({ id: c.req.param('id') }));`);
        break;
      case 2:
        out.push(`app.post('/r${i}/:org/users/:user', (c) => c.json({ org: c.req.param('org'), user: c.req.param('user') }));`);
        break;
      case 3:
        out.push(`app.get('/r${i}/:n{[0-9]+}', (c) => c.text(c.req.param('n')));`);
        break;
      case 4:
        out.push(`app.get('/r${i}/:version?', (c) => c.text(c.req.param('version') ?? 'latest'));`);
        break;
      case 5:
        out.push(`app.delete('/r${i}/:a/:b/:c', (c) => c.json(c.req.param()));`);
        break;
    }
  }
  return out;
}

/** Plain routes (`head` + the routes), and the contract pair: declared routes and a client calling each (bench/contract-types.ts). */
const APPS: Record<string, { head: string; body?: (n: number) => string }> = {
  rove: { head: "import { App } from 'rove';\nexport const app = new App();" },
  hono: { head: "import { Hono } from 'hono';\nexport const app = new Hono();" },
  'rove-contract': { head: CONTRACT_HEADS['rove-contract'], body: contractApp },
  'hono-rpc': { head: CONTRACT_HEADS['hono-rpc'], body: honoRpcApp },
};

interface Figures {
  checkTime: number;
  totalTime: number;
  instantiations: number;
  types: number;
  memoryKB: number;
}

function tsc(project: string): Figures {
  let out: string;
  try {
    out = execFileSync(process.execPath, [join(ROOT, 'node_modules/typescript/bin/tsc'), '-p', project, '--extendedDiagnostics'], {
      cwd: ROOT,
      encoding: 'utf8',
    });
  } catch (error) {
    // Type errors still print the figures (an untyped `param()` is `string | undefined`, which c.text refuses).
    out = String((error as { stdout?: string }).stdout ?? '');
    console.error(`${project}: type errors (${out.split('error TS').length - 1})`);
  }
  // tsc itself can fail on a big app (Hono's 800-route RPC chain overflows its stack): NaN figures, said on stderr.
  const crashed = !/^Check time:/m.test(out);
  if (crashed) console.error(`${project}: tsc gave no figures (it crashed)`);
  const num = (label: string) => {
    const m = new RegExp(`^${label}:\\s+([\\d.]+)`, 'm').exec(out);
    if (crashed) return Number.NaN;
    if (!m) throw new Error(`no "${label}" in tsc output:\n${out}`);
    return Number(m[1]);
  };
  return {
    checkTime: num('Check time'),
    totalTime: num('Total time'),
    instantiations: num('Instantiations'),
    types: num('Types'),
    memoryKB: num('Memory used'),
  };
}

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)];
}

function project(name: string, body: string): string {
  const dir = join(DIR, name);
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, 'app.ts'), body);
  const config = {
    compilerOptions: { target: 'ES2022', module: 'NodeNext', moduleResolution: 'NodeNext', strict: true, noEmit: true, skipLibCheck: true, types: [] },
    files: ['app.ts'],
  };
  writeFileSync(join(dir, 'tsconfig.json'), JSON.stringify(config, null, 2));
  return join(dir, 'tsconfig.json');
}

function main(): void {
  rmSync(DIR, { recursive: true, force: true });
  const results: Record<string, { empty: Figures; full: Figures; checks: number[] }> = {};
  const lines = routes(ROUTES).join('\n');
  for (const [name, { head, body }] of Object.entries(APPS)) {
    const empty = project(`${name}-empty`, `${head}\n`);
    const full = project(`${name}-${ROUTES}`, body ? body(ROUTES) : `${head}\n${lines}\n`);
    const e: Figures[] = [];
    const f: Figures[] = [];
    for (let r = 0; r < ROUNDS; r++) {
      e.push(tsc(empty));
      f.push(tsc(full));
    }
    const pick = (xs: Figures[]): Figures => ({
      checkTime: median(xs.map((x) => x.checkTime)),
      totalTime: median(xs.map((x) => x.totalTime)),
      instantiations: xs[0].instantiations,
      types: xs[0].types,
      memoryKB: median(xs.map((x) => x.memoryKB)),
    });
    results[name] = { empty: pick(e), full: pick(f), checks: f.map((x) => x.checkTime) };
  }
  rmSync(DIR, { recursive: true, force: true });
  const tsVersion = execFileSync(process.execPath, [join(ROOT, 'node_modules/typescript/bin/tsc'), '--version'], { encoding: 'utf8' }).trim();
  const rows = Object.entries(results).map(
    ([name, { empty, full, checks }]) =>
      `| ${name} | ${full.checkTime.toFixed(2)} s (${checks.map((c) => c.toFixed(2)).join(', ')}) | ${full.instantiations.toLocaleString('en')} | ${(full.instantiations - empty.instantiations).toLocaleString('en')} | ${full.types.toLocaleString('en')} | ${(full.types - empty.types).toLocaleString('en')} | ${empty.checkTime.toFixed(2)} s | ${Math.round(full.memoryKB / 1024)} MB |`,
  );
  const table = [
    `${ROUTES} routes, ${tsVersion}, Node ${process.version}, median of ${ROUNDS} runs (each run listed).`,
    '',
    '| library | check time, routes app | instantiations | of which the routes | types | of which the routes | check time, import only | memory |',
    '|---|---|---|---|---|---|---|---|',
    ...rows,
  ].join('\n');
  console.log(table);
  if (values.out) writeFileSync(values.out, `${table}\n`);
}

main();
