// Grouped bar charts as standalone SVG (no fonts, scripts or links to fetch),
// embeddable as files in Markdown and inline in the HTML page.
import { compact } from './format.ts';

export interface Series {
  name: string;
  color: string;
}

export interface BarChart {
  title: string;
  subtitle?: string;
  /** One group of bars per entry (the runtimes). */
  groups: string[];
  series: Series[];
  /** values[group][series]; null draws "n/a". */
  values: (number | null)[][];
  /** Optional tick per bar (e.g. p99 over an average-latency bar). */
  markers?: (number | null)[][];
  markerLabel?: string;
  unit: string;
  /** A dashed horizontal line across the plot, e.g. 1.00× on a ratio chart. */
  reference?: { value: number; label: string };
  width?: number;
  height?: number;
}

export const FRAMEWORK_COLORS: Record<string, string> = { rove: '#2563eb', 'rove-baseline': '#7c3aed', 'rove-fs': '#60a5fa', hono: '#ea580c', raw: '#6b7280' };

function esc(s: string): string {
  return s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
}

/** A "nice" axis maximum and step: 1, 2, 2.5 or 5 times a power of ten. */
export function niceScale(max: number, ticks = 5): { max: number; step: number } {
  if (!(max > 0) || !Number.isFinite(max)) return { max: 1, step: 0.2 };
  const raw = max / ticks;
  const pow = 10 ** Math.floor(Math.log10(raw));
  const step = [1, 2, 2.5, 5, 10].map((m) => m * pow).find((s) => s >= raw)!;
  return { max: Math.ceil(max / step - 1e-9) * step, step };
}

const f = (n: number) => (Math.round(n * 10) / 10).toString();

export function wrapSubtitle(text: string | undefined, maxChars: number): string[] {
  if (!text) return [];
  if (text.length <= maxChars) return [text];
  const cut = text.lastIndexOf(' · ', maxChars);
  return cut <= 0 ? [text] : [text.slice(0, cut), text.slice(cut + 3)];
}

export function barChart(c: BarChart): string {
  const W = c.width ?? 760;
  const H = c.height ?? 340;
  const left = 64;
  const right = 16;
  // A subtitle wider than the chart wraps at its last " · " that fits (about 6 px a character).
  const subtitle = wrapSubtitle(c.subtitle, Math.floor((W - left - right) / 6));
  const extra = subtitle.length > 1 ? 15 : 0;
  const top = (c.subtitle ? 74 : 58) + extra;
  const bottom = 34;
  const plotW = W - left - right;
  const plotH = H - top - bottom;
  const all = [...c.values.flat(), ...(c.markers?.flat() ?? []), c.reference?.value ?? null].filter((v): v is number => v != null && Number.isFinite(v));
  const { max, step } = niceScale(Math.max(0, ...all));
  const y = (v: number) => top + plotH - (v / max) * plotH;
  const out: string[] = [];
  out.push(
    `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 ${W} ${H}" width="${W}" height="${H}" role="img" aria-label="${esc(c.title)}" font-family="system-ui, -apple-system, 'Segoe UI', Helvetica, Arial, sans-serif">`,
    `<title>${esc(c.title)}</title>`,
    `<rect width="${W}" height="${H}" fill="#ffffff"/>`,
    `<text x="${left}" y="22" font-size="15" font-weight="600" fill="#111827">${esc(c.title)}</text>`,
  );
  subtitle.forEach((line, i) => out.push(`<text x="${left}" y="${40 + i * 15}" font-size="11.5" fill="#4b5563">${esc(line)}</text>`));
  // Legend, right-aligned on one line.
  let lx = W - right;
  const legendY = (c.subtitle ? 58 : 42) + extra;
  const legend: string[] = [];
  const items = [...c.series.map((s) => ({ label: s.name, color: s.color, tick: false }))];
  if (c.markers && c.markerLabel) items.push({ label: c.markerLabel, color: '#111827', tick: true });
  for (const item of items.reverse()) {
    const w = item.label.length * 6.6 + 18;
    lx -= w;
    legend.push(
      item.tick
        ? `<line x1="${f(lx)}" x2="${f(lx + 11)}" y1="${legendY - 4}" y2="${legendY - 4}" stroke="${item.color}" stroke-width="2"/>`
        : `<rect x="${f(lx)}" y="${legendY - 9}" width="11" height="11" rx="2" fill="${item.color}"/>`,
      `<text x="${f(lx + 15)}" y="${legendY}" font-size="11.5" fill="#374151">${esc(item.label)}</text>`,
    );
    lx -= 6;
  }
  out.push(...legend);
  // Grid and y axis.
  for (let v = 0; v <= max + step / 2; v += step) {
    const yy = f(y(v));
    out.push(`<line x1="${left}" x2="${W - right}" y1="${yy}" y2="${yy}" stroke="${v === 0 ? '#9ca3af' : '#e5e7eb'}" stroke-width="1"/>`);
    out.push(`<text x="${left - 6}" y="${f(y(v) + 4)}" font-size="11" fill="#6b7280" text-anchor="end">${v === 0 ? '0' : esc(compact(v))}</text>`);
  }
  out.push(
    `<text x="14" y="${f(top + plotH / 2)}" font-size="11" fill="#6b7280" text-anchor="middle" transform="rotate(-90 14 ${f(top + plotH / 2)})">${esc(c.unit)}</text>`,
  );
  // Bars.
  const groupW = plotW / Math.max(1, c.groups.length);
  const n = Math.max(1, c.series.length);
  const barW = Math.min(40, (groupW * 0.78) / n);
  // A number needs about 22 px; narrower bars keep theirs in the tooltip.
  const labels = barW >= 22;
  c.groups.forEach((g, gi) => {
    const gx = left + gi * groupW + (groupW - barW * n) / 2;
    const empty = c.series.every((_, si) => !Number.isFinite(c.values[gi]?.[si] ?? Number.NaN));
    if (empty)
      out.push(`<text x="${f(left + gi * groupW + groupW / 2)}" y="${f(top + plotH - 4)}" font-size="9.5" fill="#9ca3af" text-anchor="middle">n/a</text>`);
    c.series.forEach((s, si) => {
      const v = c.values[gi]?.[si] ?? null;
      const x = gx + si * barW;
      if (v == null || !Number.isFinite(v)) {
        if (empty || !labels) return;
        out.push(`<text x="${f(x + barW / 2)}" y="${f(top + plotH - 4)}" font-size="9.5" fill="#9ca3af" text-anchor="middle">n/a</text>`);
        return;
      }
      const h = Math.max(0.5, (v / max) * plotH);
      out.push(
        `<rect x="${f(x + 1)}" y="${f(y(v))}" width="${f(barW - 2)}" height="${f(h)}" fill="${s.color}"><title>${esc(`${g} · ${s.name}: ${compact(v)} ${c.unit}`)}</title></rect>`,
      );
      const m = c.markers?.[gi]?.[si];
      const hasTick = m != null && Number.isFinite(m);
      if (hasTick) {
        out.push(`<line x1="${f(x + 2)}" x2="${f(x + barW - 2)}" y1="${f(y(m))}" y2="${f(y(m))}" stroke="#111827" stroke-width="2"/>`);
        out.push(
          `<line x1="${f(x + barW / 2)}" x2="${f(x + barW / 2)}" y1="${f(y(m))}" y2="${f(y(v))}" stroke="#111827" stroke-width="1" stroke-dasharray="2 2"/>`,
        );
        // The tick carries its own number, so nobody reads the bar's value as the tick's.
        out.push(
          `<text x="${f(x + barW / 2)}" y="${f(y(m) - 4)}" font-size="9.5" font-weight="600" fill="#111827" text-anchor="middle">${m === 0 ? '&lt;1' : esc(compact(m))}</text>`,
        );
      }
      // The bar's own value: above it when there is no tick; with a tick, inside the bar's top
      // (white), or only in the tooltip when the bar is too short, never where it reads as the tick's.
      if (!labels) return;
      if (!hasTick) {
        out.push(`<text x="${f(x + barW / 2)}" y="${f(y(v) - 4)}" font-size="9.5" fill="#111827" text-anchor="middle">${esc(compact(v))}</text>`);
      } else if (h >= 16) {
        out.push(`<text x="${f(x + barW / 2)}" y="${f(y(v) + 11)}" font-size="9.5" fill="#ffffff" text-anchor="middle">${esc(compact(v))}</text>`);
      }
    });
    out.push(`<text x="${f(left + gi * groupW + groupW / 2)}" y="${H - bottom + 18}" font-size="12" fill="#111827" text-anchor="middle">${esc(g)}</text>`);
  });
  // Drawn over the bars, so it reads across every group.
  if (c.reference) {
    const ry = f(y(c.reference.value));
    out.push(`<line x1="${left}" x2="${W - right}" y1="${ry}" y2="${ry}" stroke="#111827" stroke-width="1" stroke-dasharray="5 4"/>`);
    out.push(
      `<text x="${W - right - 2}" y="${f(y(c.reference.value) - 4)}" font-size="10.5" fill="#111827" text-anchor="end" stroke="#ffffff" stroke-width="3" paint-order="stroke">${esc(c.reference.label)}</text>`,
    );
  }
  out.push('</svg>');
  return `${out.join('\n')}\n`;
}
