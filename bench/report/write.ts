// Writes FILE.json plus FILE.md, FILE.html and FILE-charts/*.svg beside it;
// FILE.notes.md, when present, goes into both reports after the introduction.
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
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
  return {
    dir,
    base,
    markdown: join(dir, `${base}.md`),
    html: join(dir, `${base}.html`),
    notes: join(dir, `${base}.notes.md`),
    chartDir: join(dir, `${base}-charts`),
    chartRel: `${base}-charts`,
  };
}

export function writeReports(result: BenchResult, jsonPath: string, { writeJson = true } = {}): Written {
  const p = reportPaths(jsonPath);
  mkdirSync(p.dir, { recursive: true });
  if (writeJson) writeFileSync(jsonPath, `${JSON.stringify(result, null, 2)}\n`);
  const notes = existsSync(p.notes) ? readFileSync(p.notes, 'utf8') : undefined;
  const doc = buildDocument(result, p.chartRel, notes);
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
