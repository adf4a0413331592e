// Writes FILE.json plus FILE.md, FILE.html and FILE-charts/*.svg beside it. A file named
// results.json is a directory's one report: README.md (what GitHub shows for the directory),
// report.html and charts/, as docs/benchmarks/ holds it.
import { mkdirSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import type { BenchResult } from '../lib/result.ts';
import { buildDocument } from './document.ts';
import { renderHtml } from './html.ts';
import { renderMarkdown } from './markdown.ts';

export interface Written {
  json: string;
  markdown: string;
  html: string;
  charts: string[];
}

export function reportPaths(jsonPath: string) {
  const dir = dirname(jsonPath);
  const base = basename(jsonPath).replace(/\.json$/i, '');
  if (base === 'results')
    return { dir, base, markdown: join(dir, 'README.md'), html: join(dir, 'report.html'), chartDir: join(dir, 'charts'), chartRel: 'charts' };
  return { dir, base, markdown: join(dir, `${base}.md`), html: join(dir, `${base}.html`), chartDir: join(dir, `${base}-charts`), chartRel: `${base}-charts` };
}

export function writeReports(result: BenchResult, jsonPath: string, { writeJson = true } = {}): Written {
  const p = reportPaths(jsonPath);
  mkdirSync(p.dir, { recursive: true });
  if (writeJson) writeFileSync(jsonPath, `${JSON.stringify(result, null, 2)}\n`);
  const doc = buildDocument(result, p.chartRel);
  // Replace the chart directory whole so charts of scenarios no longer run do not linger.
  rmSync(p.chartDir, { recursive: true, force: true });
  mkdirSync(p.chartDir, { recursive: true });
  const charts = doc.charts.map((c) => {
    const file = join(p.chartDir, c.file);
    writeFileSync(file, c.svg);
    return file;
  });
  writeFileSync(p.markdown, renderMarkdown(doc));
  writeFileSync(p.html, renderHtml(doc));
  return { json: jsonPath, markdown: p.markdown, html: p.html, charts: readdirSync(p.chartDir).length ? charts : [] };
}
