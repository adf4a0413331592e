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

/** The test-view-filter scenario's items: a name, a date (ms since the epoch) and a price. */
export const FILTER_ITEMS: readonly { name: string; at: number; price: number }[] = Array.from({ length: 50 }, (_, i) => ({
  name: `Item ${i}`,
  at: Date.UTC(2026, 0, 1 + i),
  price: i * 1.25 + 0.99,
}));

/** Its date format, in UTC so that every runtime prints the same day: what each framework passes to Intl. */
export const FILTER_DATE: Intl.DateTimeFormatOptions = { dateStyle: 'medium', timeZone: 'UTC' };
const DATE_FORMAT = new Intl.DateTimeFormat('en-US', FILTER_DATE);
const CURRENCIES = new Map<string, Intl.NumberFormat>();

/** A date as the scenario prints it. */
export function formatDate(ms: number): string {
  return DATE_FORMAT.format(ms);
}

/** A price in `code` as the scenario prints it (one formatter per currency, made once). */
export function formatCurrency(value: number, code: string): string {
  let f = CURRENCIES.get(code);
  if (f === undefined) CURRENCIES.set(code, (f = new Intl.NumberFormat('en-US', { style: 'currency', currency: code })));
  return f.format(value);
}

/** The test-view-filter page by hand: the raw peer's answer and the scenario's expected body. */
export function filterList(items: typeof FILTER_ITEMS): string {
  let out = '<ul>';
  for (const item of items) out += `<li>${escapeHtml(item.name)}: ${formatDate(item.at)}, ${formatCurrency(item.price, 'EUR')}</li>`;
  return `${out}</ul>`;
}
