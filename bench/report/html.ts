// One HTML page beside its charts: inline CSS, the charts as <img> of the SVG files the
// Markdown links too (so they are stored once), no scripts, fonts or remote requests.
import type { Block, Cell, Doc, Table } from './document.ts';

export function escapeHtml(s: string): string {
  return s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
}

/** The small inline subset the document uses: `code`, **bold**, [text](url). */
export function inline(text: string): string {
  return escapeHtml(text)
    .replace(/`([^`]+)`/g, '<code>$1</code>')
    .replace(/\*\*([^*]+)\*\*/g, '<strong>$1</strong>')
    .replace(/\[([^\]]+)\]\(([^)\s]+)\)/g, '<a href="$2">$1</a>');
}

/** "1.05× (0.98–1.10)" as the ratio with its spread on a second line, so wide tables fit a laptop screen. */
function cellText(text: string): string {
  const m = /^(\S+×)( \([\d.]+–[\d.]+\))(.*)$/.exec(text);
  return m ? `${inline(m[1]!)}<br><span class="range">${inline(m[2]!.trim())}${inline(m[3]!)}</span>` : inline(text);
}

function cell(c: Cell, align: string | undefined): string {
  const cls: string[] = [];
  if (align === 'right') cls.push('num');
  let text: string;
  if (typeof c === 'string') text = cellText(c);
  else {
    text = cellText(c.text);
    if (c.tone) cls.push(c.tone);
    if (c.strong) text = `<strong>${text}</strong>`;
  }
  return `<td${cls.length ? ` class="${cls.join(' ')}"` : ''}>${text}</td>`;
}

function table(t: Table): string {
  const head = t.columns.map((c) => `<th${c.align === 'right' ? ' class="num"' : ''}>${inline(c.label)}</th>`).join('');
  const body = t.rows.map((r) => `<tr>${r.map((c, i) => cell(c, t.columns[i]?.align)).join('')}</tr>`).join('\n');
  return `<div class="scroll"><table><thead><tr>${head}</tr></thead><tbody>\n${body}\n</tbody></table></div>`;
}

const STYLE = `
:root { color-scheme: light; }
body { font: 15px/1.5 system-ui, -apple-system, "Segoe UI", Helvetica, Arial, sans-serif; color: #111827; margin: 0; background: #f9fafb; }
main { max-width: 1240px; box-sizing: border-box; margin: 0 auto; padding: 24px 20px 60px; background: #fff; }
h1 { font-size: 28px; margin: 8px 0 12px; }
h2 { font-size: 21px; margin: 36px 0 10px; padding-top: 8px; border-top: 1px solid #e5e7eb; }
h3 { font-size: 16px; margin: 24px 0 8px; }
code { font: 13px ui-monospace, SFMono-Regular, Menlo, Consolas, monospace; background: #f3f4f6; padding: 1px 4px; border-radius: 4px; }
pre { background: #111827; color: #f9fafb; padding: 12px 14px; border-radius: 6px; overflow-x: auto; }
pre code { background: none; color: inherit; padding: 0; }
.scroll { overflow-x: auto; }
table { border-collapse: collapse; font-size: 12.5px; margin: 8px 0 14px; }
th, td { padding: 3px 6px; border-bottom: 1px solid #e5e7eb; text-align: left; white-space: nowrap; }
.range { color: #4b5563; font-size: 11.5px; }
th { background: #f3f4f6; font-weight: 600; white-space: normal; vertical-align: bottom; }
.num { text-align: right; font-variant-numeric: tabular-nums; }
td.good { background: #dcfce7; }
td.warn { background: #fef9c3; }
td.bad { background: #fee2e2; }
figure { margin: 10px 0 18px; }
figure img { max-width: 100%; height: auto; border: 1px solid #e5e7eb; border-radius: 6px; }
nav { font-size: 13.5px; background: #f3f4f6; padding: 8px 12px; border-radius: 6px; }
nav a { margin-right: 12px; }
`;

export function renderHtml(doc: Doc): string {
  const svgByFile = new Map(doc.charts.map((c) => [c.file, c.svg]));
  const toc = doc.blocks
    .filter((b): b is Extract<Block, { kind: 'h' }> => b.kind === 'h' && b.level === 2)
    .map((b) => `<a href="#${b.id}">${inline(b.text)}</a>`)
    .join(' ');
  const parts: string[] = [];
  for (const b of doc.blocks) {
    switch (b.kind) {
      case 'h':
        parts.push(`<h${b.level} id="${b.id}">${inline(b.text)}</h${b.level}>`);
        if (b.level === 1) parts.push(`<nav>${toc}</nav>`);
        break;
      case 'p':
        parts.push(`<p>${inline(b.text)}</p>`);
        break;
      case 'list':
        parts.push(`<ul>${b.items.map((i) => `<li>${inline(i)}</li>`).join('')}</ul>`);
        break;
      case 'table':
        parts.push(table(b.table));
        break;
      case 'chart': {
        const name = b.file.slice(b.file.lastIndexOf('/') + 1);
        const svg = svgByFile.get(name);
        // The SVG's own size, so the page does not reflow as the images load.
        const w = svg && /\swidth="(\d+)"/.exec(svg)?.[1];
        const h = svg && /\sheight="(\d+)"/.exec(svg)?.[1];
        parts.push(
          svg
            ? `<figure><img src="${escapeHtml(b.file)}" alt="${escapeHtml(b.alt)}"${w && h ? ` width="${w}" height="${h}"` : ''}></figure>`
            : `<p>(${escapeHtml(b.alt)}: chart missing)</p>`,
        );
        break;
      }
      case 'code':
        parts.push(`<pre><code>${escapeHtml(b.text)}</code></pre>`);
        break;
    }
  }
  return `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(doc.title)}</title>
<style>${STYLE}</style>
</head>
<body>
<main>
${parts.join('\n')}
</main>
</body>
</html>
`;
}
