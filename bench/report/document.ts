// Turns a run into a document (headings, paragraphs, tables, charts) that the Markdown and
// HTML writers render the same way. Order: what produced it, the summary, cold start, bundle
// size, the detail per scenario group, what failed, and how to reproduce it.
import { ALL_FRAMEWORKS, REPORT_JSON, RUNTIMES } from '../lib/config.ts';
import { type BenchResult, median, type Row } from '../lib/result.ts';
import { baselineBlocks } from './baseline-section.ts';
import { type Block, type Cell, type Chart, type Column, type Doc, slug, type Table, type Tone } from './blocks.ts';
import { bundleSizeBlocks } from './bundle-section.ts';
import { present, ratioTone } from './cells.ts';
import { coldStartBlocks } from './cold-start-section.ts';
import { detailBlocks } from './detail-section.ts';
import { compact } from './format.ts';
import { methodLines } from './sections.ts';
import { provenanceBlock, summaryBlocks } from './summary-section.ts';
import { tracingBlocks } from './tracing-section.ts';
import { uploadsBlocks } from './uploads-section.ts';

export type { Block, Cell, Chart, Column, Doc, Table, Tone };
export { bundleSizeBlocks, compact, ratioTone, slug };

export function buildDocument(result: BenchResult, chartDir: string): Doc {
  const { meta, config, rows } = result;
  const frameworks = present(
    ALL_FRAMEWORKS,
    rows.map((r) => r.framework),
    (f) => f,
  );
  const blocks: Block[] = [];
  const charts: Chart[] = [];
  const add = (part: { blocks: Block[]; charts: Chart[] }) => {
    blocks.push(...part.blocks);
    charts.push(...part.charts);
  };
  const title = 'Rove benchmarks';
  blocks.push({ kind: 'h', level: 1, text: title, id: slug(title) }, provenanceBlock(result));
  const rounds = config.rounds > 1 ? `${config.rounds} rounds${config.fresh ? ', each in freshly started server processes' : ''}` : 'one round';
  blocks.push({
    kind: 'p',
    text: `One HTTP app written with Rove (\`examples/bench\`), the same routes written with Hono (\`bench/hono\`) and as a bare server with no framework (\`bench/raw\`, "raw", the ceiling), load-tested on ${runtimeList(result)} in one run: ${config.connections} connections, pipelining ${config.pipelining}, ${config.durationS} s measured after ${config.warmupS} s warm-up, ${rounds} (profile \`${config.profile}\`). On ${meta.host.cpus} × ${meta.host.cpuModel}, ${meta.host.os}${meta.pinning ? ', server and load generator pinned to separate cores' : ''}. Absolute req/s depend on this small machine; the ratios between frameworks, measured seconds apart, are what carries over. How everything is measured: [methods.md](methods.md).`,
  });
  blocks.push(...baselineBlocks(result));
  add(summaryBlocks(result, chartDir));
  if (result.coldStart) blocks.push(...coldStartBlocks(result.coldStart));
  if (result.bundleSizes) blocks.push(...bundleSizeBlocks(result.bundleSizes));
  if (result.uploads) blocks.push(...uploadsBlocks(result.uploads));
  if (result.tracing) blocks.push(...tracingBlocks(result.tracing));
  add(detailBlocks(result, chartDir, frameworks));

  const failed = rows.filter((r) => !r.ok);
  blocks.push({ kind: 'h', level: 2, text: 'Rows that failed', id: 'rows-that-failed' });
  if (failed.length === 0) blocks.push({ kind: 'p', text: 'None: every target started, answered every check correctly and served the load without errors.' });
  else {
    blocks.push(
      {
        kind: 'p',
        text: 'A row fails when its target did not start, answered a check wrongly (then it is not measured) or had errors, timeouts or non-2xx responses under load.',
      },
      { kind: 'list', items: failed.map((r) => `${r.runtime} · ${r.framework} · \`${r.scenario}\`: ${r.error ?? 'failed'}`) },
    );
  }

  blocks.push(
    { kind: 'h', level: 2, text: 'The run', id: 'the-run' },
    {
      kind: 'list',
      items: [
        `Machine: ${meta.host.cpus} × ${meta.host.cpuModel}, ${meta.host.memGiB} GiB, ${meta.host.os}.`,
        `Versions: ${Object.entries(meta.versions)
          .map(([k, v]) => `${k} ${v}`)
          .join(', ')}.`,
        ...backgroundLine(rows, config.waitQuietS),
        ...methodLines(result),
      ],
    },
    { kind: 'p', text: 'Method, stand-ins and known runtime limits: [methods.md](methods.md).' },
    { kind: 'h', level: 2, text: 'Reproduce', id: 'reproduce' },
    {
      kind: 'code',
      text: `# the whole report (about 80 minutes on 2 cores): ${REPORT_JSON}, README.md, charts/\nnpm run bench\n# a few rows, elsewhere\nnpm run bench -- --profile quick --runtimes node,deno --scenarios test,params --out tmp/bench/try.json\n# render a report again from its JSON\nnpm run bench -- --report ${REPORT_JSON}`,
    },
  );
  return { title, blocks, charts };
}

const RUNTIME_NAMES: Record<string, string> = {
  node: 'Node',
  deno: 'Deno',
  bun: 'Bun',
  'deno-deploy': 'Deno Deploy (`deno serve`)',
  workerd: 'workerd (the Cloudflare Workers runtime)',
};

/** "Node, Deno and workerd (…)": the runtimes the run has rows for. */
function runtimeList(result: BenchResult): string {
  const names = RUNTIMES.filter((rt) => result.rows.some((r) => r.runtime === rt)).map((rt) => RUNTIME_NAMES[rt] ?? rt);
  return names.length > 1 ? `${names.slice(0, -1).join(', ')} and ${names[names.length - 1]}` : (names[0] ?? 'no runtime');
}

/** How busy the shared machine was with other work while the rows were measured. */
function backgroundLine(rows: readonly Row[], waitQuietS: number | undefined): string[] {
  const bg = rows.map((r) => r.backgroundCpuPct).filter((v): v is number => v != null);
  if (bg.length === 0) return [];
  const busy = bg.filter((v) => v >= 25).length;
  return [
    `Other processes on the machine used a median ${median(bg).toFixed(0)}% of one core during the measured windows (max ${Math.max(...bg)}%; ${busy} of ${bg.length} rows above 25%)${waitQuietS ? `; before each measurement the runner waited up to ${waitQuietS} s for them to go quiet` : ''}.`,
  ];
}

/**
 * The day of the run, or the first and last day when rows were measured again and merged in
 * (the command line records each merge's day).
 */
export function runDates(result: BenchResult): string {
  const days = [result.meta.date.slice(0, 10), ...(result.meta.command?.match(/\d{4}-\d{2}-\d{2}/g) ?? [])].sort();
  return days[0] === days[days.length - 1] ? days[0]! : `${days[0]} to ${days[days.length - 1]}`;
}
