// The document model the Markdown and HTML writers render (built by document.ts).

export type Tone = 'good' | 'warn' | 'bad';
export type Cell = string | { text: string; tone?: Tone; strong?: boolean };
export interface Column {
  label: string;
  align?: 'left' | 'right';
}
export interface Table {
  columns: Column[];
  rows: Cell[][];
}
export type Block =
  | { kind: 'h'; level: 1 | 2 | 3; text: string; id: string }
  | { kind: 'p'; text: string }
  | { kind: 'list'; items: string[] }
  | { kind: 'table'; table: Table }
  | { kind: 'chart'; file: string; alt: string }
  | { kind: 'code'; text: string };

export interface Chart {
  file: string;
  svg: string;
}

export interface Doc {
  title: string;
  blocks: Block[];
  charts: Chart[];
}

export function slug(s: string): string {
  return s
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-|-$/g, '');
}
