// Hand-written HTML for the raw peer (it has no template engine): the ceiling
// for the view and fortunes scenarios.
import type { Fortune } from './fixtures.ts';

const ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

export function escapeHtml(s: string): string {
  return s.replace(/[&<>"']/g, (ch) => ESCAPES[ch]!);
}

export function fortunesPage(rows: readonly Fortune[]): string {
  let out = '<!DOCTYPE html><html><head><title>Fortunes</title></head><body><table><tr><th>id</th><th>message</th></tr>';
  for (const row of rows) out += `<tr><td>${row.id}</td><td>${escapeHtml(row.message)}</td></tr>`;
  return `${out}</table></body></html>`;
}

export function eachMeta(items: readonly number[]): string {
  let out = '';
  const n = items.length;
  for (let i = 0; i < n; i++) {
    out += `(${i}/${n} ${i === 0 ? 'F' : '-'}${i === n - 1 ? 'L' : '-'}=${escapeHtml(String(items[i]))});`;
  }
  return out;
}

export const ITEMS_0_49: readonly number[] = Array.from({ length: 50 }, (_, i) => i);
