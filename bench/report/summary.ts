// The plain-text summary printed at the end of a run.

import { type BundleSizes, kb, roveOverHono } from '../lib/bundle-size.ts';
import { ALL_FRAMEWORKS, type FrameworkId, RUNTIMES } from '../lib/config.ts';
import { type BenchResult, findRow } from '../lib/result.ts';
import { SCENARIOS } from '../lib/scenarios.ts';
import { groupSpread, roundRatios, spreadOf, spreadText } from '../lib/spread.ts';
import { compact, DASH, times } from './format.ts';
import { summaryAxes } from './summary-section.ts';

export function textTable(head: string[], rows: string[][], rightFrom = 1): string {
  const widths = head.map((h, i) => Math.max(h.length, ...rows.map((r) => (r[i] ?? '').length)));
  const line = (cells: string[]) =>
    cells
      .map((c, i) => (i >= rightFrom ? c.padStart(widths[i]!) : c.padEnd(widths[i]!)))
      .join('  ')
      .trimEnd();
  return [line(head), widths.map((w) => '─'.repeat(w)).join('  '), ...rows.map(line)].join('\n');
}

export function summaryText(result: BenchResult): string {
  const { rows } = result;
  const frameworks = ALL_FRAMEWORKS.filter((f) => rows.some((r) => r.framework === f));
  const out: string[] = [];
  for (const rt of RUNTIMES) {
    if (!rows.some((r) => r.runtime === rt)) continue;
    const head = ['scenario', ...frameworks.map((f) => `${f} req/s`), ...frameworks.map((f) => `${f} µs/req`)];
    const ratios = (['rove-baseline', 'raw', 'hono'] as const).filter((f) => frameworks.includes(f) && frameworks.includes('rove'));
    head.push(...ratios.map((f) => `rove/${f}`), ...ratios.map((f) => `cpu rove/${f}`));
    const body: string[][] = [];
    for (const s of SCENARIOS) {
      if (!rows.some((r) => r.runtime === rt && r.scenario === s.id)) continue;
      const cells = [s.id];
      for (const f of frameworks) {
        const r = findRow(rows, rt, f, s.id);
        cells.push(!r ? '' : r.rps.avg === null ? 'FAIL' : compact(r.rps.avg) + (r.ok ? '' : '†'));
      }
      for (const f of frameworks) {
        const r = findRow(rows, rt, f, s.id);
        cells.push(!r ? '' : r.cpuUsPerReq !== null ? r.cpuUsPerReq.toFixed(1) : DASH);
      }
      // Median of the per-round ratios (spread in brackets), higher is better: CPU is the peer's µs over Rove's.
      for (const f of ratios) cells.push(ratioText(rows, rt, s.id, 'rps', f));
      for (const f of ratios) cells.push(ratioText(rows, rt, s.id, 'cpu', f));
      body.push(cells);
    }
    out.push(`${rt}\n${textTable(head, body)}`);
  }
  const failed = rows.filter((r) => !r.ok);
  out.push(
    `${rows.length - failed.length}/${rows.length} rows ok${failed.length ? `; failed: ${failed.map((r) => `${r.runtime}/${r.framework}/${r.scenario}`).join(', ')}` : ''}`,
  );
  out.push(...groupSummaryText(result));
  if (result.bundleSizes) out.push(bundleSizesText(result.bundleSizes));
  return out.join('\n\n');
}

/** The report's summary: runtime × scenario group, Rove's req/s over Hono's and over raw's. */
export function groupSummaryText(result: BenchResult): string[] {
  const { runtimes, groups } = summaryAxes(result);
  const out: string[] = [];
  for (const over of ['hono', 'raw'] as const) {
    if (!result.rows.some((r) => r.framework === over) || !result.rows.some((r) => r.framework === 'rove')) continue;
    const body = runtimes.map((rt) => [
      rt,
      ...groups.map((g) => {
        const s = groupSpread(result.rows, rt, g.scenarios, 'rps', over);
        return s ? spreadText(s) : DASH;
      }),
    ]);
    out.push(`req/s rove/${over}, geometric mean per scenario group\n${textTable(['runtime', ...groups.map((g) => g.label)], body)}`);
  }
  return out;
}

function ratioText(rows: BenchResult['rows'], rt: string, scenario: string, metric: 'rps' | 'cpu', over: FrameworkId): string {
  const s = spreadOf(roundRatios(rows, rt, scenario, metric, over));
  return s ? spreadText(s) : DASH;
}

/** The bundle sizes as a plain-text table (npm run bench:size, and the end of a run). */
export function bundleSizesText(sizes: BundleSizes): string {
  const rows = sizes.bundles.map((b) => [
    b.label,
    b.entry,
    b.bytes == null ? 'FAILED' : b.bytes.toLocaleString('en-US'),
    kb(b.bytes),
    b.gzipBytes == null ? '' : b.gzipBytes.toLocaleString('en-US'),
    kb(b.gzipBytes),
  ]);
  const r = roveOverHono(sizes);
  const failed = sizes.bundles.filter((b) => b.error).map((b) => `${b.id}: ${b.error}`);
  return [
    textTable(['bundle', 'entry', 'bytes', 'KB', 'gzip bytes', 'gzip KB'], rows, 2),
    `rove/hono: ${times(r.bytes)} (gzip ${times(r.gzipBytes)})`,
    `${sizes.command}; esbuild ${sizes.versions.esbuild}, rove ${sizes.versions.rove}, hono ${sizes.versions.hono}`,
    ...failed,
  ].join('\n');
}
