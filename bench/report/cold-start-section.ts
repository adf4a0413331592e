// The cold-start section: per runtime × app × mode, the time from spawning the server to its
// first answer and the CPU spent before it, with Rove's two-route app against Hono's and the bare one's.

import { coldRatio, coldRatioText } from '../lib/cold-start-ratio.ts';
import type { ColdStartApp, ColdStartEntry, ColdStartResult } from '../lib/cold-start-result.ts';
import { RUNTIMES } from '../lib/config.ts';
import type { Block, Cell } from './blocks.ts';
import { RUNTIME_LABEL } from './cells.ts';
import { DASH } from './format.ts';

export const APP_LABEL: Record<ColdStartApp, string> = {
  'two-route-rove': 'Two-route app, Rove',
  'two-route-hono': 'Two-route app, Hono',
  'two-route-bare': 'Two-route app, bare runtime',
  hello: 'examples/hello',
  notes: 'examples/notes',
};
const APP_ORDER = Object.keys(APP_LABEL) as ColdStartApp[];

const msText = (v: number | null | undefined) => (v == null ? DASH : v < 10 ? v.toFixed(1) : Math.round(v).toLocaleString('en-US'));

function withRange(median: number | null, range: [number, number] | null): string {
  if (median == null) return DASH;
  return range ? `${msText(median)} (${msText(range[0])}–${msText(range[1])})` : msText(median);
}

/** Rove's first answer over a peer's (same runtime and mode), round by round: below 1.00× Rove answers sooner. */
function timeRatio(rove: ColdStartEntry, peer: ColdStartEntry | undefined): Cell {
  const r = coldRatio(rove, peer);
  if (r === null) return DASH;
  return { text: coldRatioText(r), tone: r.median <= 1.05 ? 'good' : r.median <= 1.25 ? 'warn' : 'bad' };
}

export function coldStartBlocks(cold: ColdStartResult): Block[] {
  // workerd has no source mode (the paragraph says so): its source entries are not failed rows.
  const entries = cold.entries
    .filter((e) => !(e.runtime === 'workerd' && e.mode === 'source'))
    .sort(
      (a, b) =>
        RUNTIMES.indexOf(a.runtime) - RUNTIMES.indexOf(b.runtime) || a.mode.localeCompare(b.mode) || APP_ORDER.indexOf(a.app) - APP_ORDER.indexOf(b.app),
    );
  const find = (e: ColdStartEntry, app: ColdStartApp) => cold.entries.find((x) => x.runtime === e.runtime && x.mode === e.mode && x.app === app);
  const startup = entries.some((e) => e.median.startupMs != null);
  const rows: Cell[][] = entries.map((e) => [
    RUNTIME_LABEL[e.runtime] ?? e.runtime,
    APP_LABEL[e.app] ?? e.app,
    e.mode,
    e.error ? { text: `failed: ${e.error}`, tone: 'bad' } : withRange(e.median.firstAnswerMs, e.spread.firstAnswerMs),
    withRange(e.median.cpuMs, e.spread.cpuMs),
    ...(startup ? [withRange(e.median.startupMs, e.spread.startupMs)] : []),
    e.bundleBytes == null ? DASH : `${(e.bundleBytes / 1000).toFixed(1)}`,
    e.app === 'two-route-rove' ? timeRatio(e, find(e, 'two-route-hono')) : '',
    e.app === 'two-route-rove' ? timeRatio(e, find(e, 'two-route-bare')) : '',
  ]);
  return [
    { kind: 'h', level: 2, text: 'Cold start', id: 'cold-start' },
    {
      kind: 'p',
      text: `From spawning the runtime with the app to its first answer (\`GET /users/7\`; examples/notes: \`GET /api/openapi.json\`, through its whole middleware stack), over ${cold.starts} fresh processes per row: median, with the fastest and slowest start in brackets, and the CPU the server spent before answering. "bundled": one esbuild bundle, as a deploy ships it; "source": the TypeScript entry as you run it while developing (workerd runs only bundles, as wrangler uploads them). The starts go round by round, every entry once per round, so each round gives Rove's time over Hono's and over the bare server's for the same two-route app. The ratio columns give the median of those per-round ratios, with the middle half of the rounds (quartiles) in brackets: below 1.00× Rove answers sooner. Method: [methods.md](methods.md#cold-start).`,
    },
    {
      kind: 'table',
      table: {
        columns: [
          { label: 'Runtime' },
          { label: 'App' },
          { label: 'Mode' },
          { label: 'First answer ms', align: 'right' },
          { label: 'CPU ms', align: 'right' },
          ...(startup ? [{ label: 'workerd startup ms', align: 'right' as const }] : []),
          { label: 'Bundle KB', align: 'right' },
          { label: 'Rove/Hono', align: 'right' },
          { label: 'Rove/bare', align: 'right' },
        ],
        rows,
      },
    },
    // Not this run's figures: a pointer to the build that takes parsing and compiling out of a Bun start.
    ...(entries.some((e) => e.runtime === 'bun')
      ? [
          {
            kind: 'p' as const,
            text: "On Bun most of the gap to Hono is JavaScriptCore parsing and compiling Rove's larger bundle. Built with Bun's bytecode cache (`bun build --target=bun --format=cjs --bytecode`), which this table does not measure, Rove's two-route app comes close to Hono's built the same way: [methods.md](methods.md#bun-with-its-bytecode-cache).",
          },
        ]
      : []),
  ];
}
