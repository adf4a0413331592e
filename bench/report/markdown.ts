// Markdown writer for the report document.
import type { Block, Cell, Doc, Table } from './document.ts';

const cellText = (c: Cell) => {
  const text = typeof c === 'string' ? c : c.strong ? `**${c.text}**` : c.text;
  return text.replace(/\|/g, '\\|').replace(/\n/g, ' ');
};

export function markdownTable(t: Table): string {
  const head = `| ${t.columns.map((c) => c.label).join(' | ')} |`;
  const sep = `| ${t.columns.map((c) => (c.align === 'right' ? '---:' : '---')).join(' | ')} |`;
  const body = t.rows.map((r) => `| ${r.map(cellText).join(' | ')} |`);
  return [head, sep, ...body].join('\n');
}

function block(b: Block): string {
  switch (b.kind) {
    case 'h':
      return `${'#'.repeat(b.level)} ${b.text}`;
    case 'p':
      return b.text;
    case 'list':
      return b.items.map((i) => `- ${i}`).join('\n');
    case 'table':
      return markdownTable(b.table);
    case 'chart':
      return `![${b.alt}](${b.file})`;
    case 'code':
      return `\`\`\`sh\n${b.text}\n\`\`\``;
  }
}

export function renderMarkdown(doc: Doc): string {
  return `${doc.blocks.map(block).join('\n\n')}\n`;
}
