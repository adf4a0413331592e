// One trace as a tracing UI draws it: a row per span, in tree order, each a bar on a shared time
// axis, indented under its parent. Standalone SVG (no fonts, scripts or links to fetch).
import type { ReceivedSpan } from './otlp-receiver.ts';

const KIND_COLORS: Record<number, string> = { 1: '#7c3aed', 2: '#2563eb', 3: '#ea580c' };
const KIND_NAMES: Record<number, string> = { 1: 'internal', 2: 'server', 3: 'client' };
const ERROR_COLOR = '#dc2626';

export interface TimelineRow {
  span: ReceivedSpan;
  depth: number;
}

/** The trace's spans in tree order: each parent, then its children by start time. */
export function treeOrder(spans: readonly ReceivedSpan[]): TimelineRow[] {
  const ids = new Set(spans.map((s) => s.spanId));
  const byParent = new Map<string, ReceivedSpan[]>();
  for (const s of spans) {
    // A span whose parent is not in the trace (a remote caller) is drawn as a root.
    const parent = ids.has(s.parentSpanId) ? s.parentSpanId : '';
    byParent.set(parent, [...(byParent.get(parent) ?? []), s]);
  }
  const rows: TimelineRow[] = [];
  const visit = (parent: string, depth: number) => {
    for (const s of [...(byParent.get(parent) ?? [])].sort((a, b) => (a.startNs < b.startNs ? -1 : a.startNs > b.startNs ? 1 : 0))) {
      rows.push({ span: s, depth });
      visit(s.spanId, depth + 1);
    }
  };
  visit('', 0);
  return rows;
}

function esc(s: string): string {
  return s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
}

/** Axis steps of 1, 2 or 5 times a power of ten, about five across. */
function step(totalMs: number): number {
  const raw = totalMs / 5;
  const pow = 10 ** Math.floor(Math.log10(raw));
  return [1, 2, 5, 10].map((m) => m * pow).find((s) => s >= raw)!;
}

const ms = (ns: bigint) => Number(ns) / 1e6;
const fmt = (n: number) => (n >= 10 ? n.toFixed(0) : n >= 1 ? n.toFixed(1) : n.toFixed(2));

/** Render `spans` (one trace) as a timeline, `width` px wide. */
export function renderTimeline(spans: readonly ReceivedSpan[], title: string, width = 960): string {
  const rows = treeOrder(spans);
  // A trace across services names each span's service.
  const services = new Set(rows.map((r) => r.span.service)).size > 1;
  const labelWidth = services ? 340 : 300;
  const right = 70;
  const top = 56;
  const rowHeight = 26;
  const plot = width - labelWidth - right;
  // The trace's first start and last end (bigint: no Math.min).
  let t0 = rows[0].span.startNs;
  let t1 = rows[0].span.endNs;
  for (const { span } of rows) {
    if (span.startNs < t0) t0 = span.startNs;
    if (span.endNs > t1) t1 = span.endNs;
  }
  const total = Math.max(ms(t1 - t0), 0.001);
  const x = (ns: bigint) => labelWidth + (ms(ns - t0) / total) * plot;
  const height = top + rows.length * rowHeight + 40;
  const out: string[] = [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}" font-family="system-ui, sans-serif" font-size="12">`,
    `<title>${esc(title)}</title>`,
    `<rect width="${width}" height="${height}" fill="#ffffff"/>`,
    `<text x="12" y="22" font-size="15" font-weight="600">${esc(title)}</text>`,
    `<text x="12" y="40" fill="#4b5563">${rows.length} spans · ${fmt(total)} ms · trace ${esc(rows[0].span.traceId)}</text>`,
  ];
  // The time axis: a grid line and a label per step.
  const every = step(total);
  for (let t = 0; t <= total + 1e-9; t += every) {
    const gx = labelWidth + (t / total) * plot;
    out.push(`<line x1="${gx.toFixed(1)}" y1="${top - 6}" x2="${gx.toFixed(1)}" y2="${top + rows.length * rowHeight}" stroke="#e5e7eb"/>`);
    out.push(`<text x="${gx.toFixed(1)}" y="${top + rows.length * rowHeight + 16}" text-anchor="middle" fill="#6b7280">${fmt(t)} ms</text>`);
  }
  rows.forEach(({ span, depth }, i) => {
    const y = top + i * rowHeight;
    const failed = span.status === 2;
    const color = failed ? ERROR_COLOR : (KIND_COLORS[span.kind] ?? '#6b7280');
    const x0 = x(span.startNs);
    const w = Math.max(x(span.endNs) - x0, 2);
    const duration = ms(span.endNs - span.startNs);
    const kind = KIND_NAMES[span.kind] ?? 'span';
    out.push(`<g class="span" data-kind="${kind}">`);
    out.push(`<title>${esc(`${span.name} (${kind}): ${fmt(duration)} ms${failed ? ', failed' : ''}`)}</title>`);
    const label = services ? `${span.service}: ${span.name}` : span.name;
    out.push(`<text class="label" x="${12 + depth * 16}" y="${y + 17}">${esc(label)}</text>`);
    out.push(`<rect class="bar" x="${x0.toFixed(1)}" y="${y + 5}" width="${w.toFixed(1)}" height="${rowHeight - 10}" rx="3" fill="${color}"/>`);
    out.push(`<text class="duration" x="${(x0 + w + 4).toFixed(1)}" y="${y + 17}" fill="#374151">${fmt(duration)} ms</text>`);
    out.push('</g>');
  });
  // The legend: what each colour is.
  const legend = [...Object.entries(KIND_NAMES).map(([k, name]) => [name, KIND_COLORS[Number(k)]]), ['failed', ERROR_COLOR]];
  legend.forEach(([name, color], i) => {
    const lx = width - 4 * 80 + i * 80;
    out.push(`<rect x="${lx}" y="12" width="11" height="11" fill="${color}"/><text x="${lx + 15}" y="22" fill="#374151">${name}</text>`);
  });
  out.push('</svg>');
  return `${out.join('\n')}\n`;
}
