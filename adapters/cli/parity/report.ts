// The terminal report of `rove parity`: one row per request, then what differs, grouped by runtime.
import type { Difference } from './compare.ts';
import type { ParityResult } from './run.ts';

const MAX_VALUE = 100;

function shorten(value: string): string {
  const one = JSON.stringify(value).slice(1, -1);
  return one.length > MAX_VALUE ? `${one.slice(0, MAX_VALUE)}… (${value.length} chars)` : one;
}

function pad(s: string, n: number): string {
  return s.length >= n ? s : s + ' '.repeat(n - s.length);
}

function verdict(diffs: Difference[]): string {
  if (diffs.length === 0) return 'same';
  const unexplained = diffs.filter((d) => d.known === undefined);
  const list = (ds: Difference[]) => ds.map((d) => d.aspect.replace(/^header /, '')).join(', ');
  if (unexplained.length === 0) return `known: ${list(diffs)}`;
  return `DIFFERS: ${list(unexplained)}${unexplained.length < diffs.length ? ' (+known)' : ''}`;
}

/** The report as text: the table, the details of every difference, and a summary line. */
export function formatReport(result: ParityResult): string {
  const up = result.runtimes.filter((r) => result.failed[r] === undefined);
  const lines: string[] = [];
  for (const r of result.runtimes) if (result.failed[r] !== undefined) lines.push(`${r}: did not start\n  ${result.failed[r]!.split('\n').join('\n  ')}`);
  const nameWidth = Math.min(48, Math.max(7, ...result.requests.map((q) => q.name.length)));
  const widths = up.map((r) => Math.max(r.length, 5));
  lines.push(`${pad('#', 4)}${pad('request', nameWidth + 2)}${up.map((r, i) => pad(r, widths[i] + 2)).join('')}result`);
  result.requests.forEach((q, n) => {
    const name = q.name.length > nameWidth ? `${q.name.slice(0, nameWidth - 1)}…` : q.name;
    lines.push(
      `${pad(String(n + 1), 4)}${pad(name, nameWidth + 2)}${up.map((r, i) => pad(String(q.statuses[r] ?? '-'), widths[i] + 2)).join('')}${verdict(q.differences)}`,
    );
  });
  // Details for what no rule explains; the known platform differences once, with their reasons.
  const detailed = result.requests.map((q, n) => ({ q, n })).filter(({ q }) => q.differences.some((d) => d.known === undefined));
  if (detailed.length) lines.push('');
  for (const { q, n } of detailed) {
    lines.push(`${n + 1}. ${q.name}`);
    for (const d of q.differences) {
      if (d.known !== undefined) continue;
      lines.push(`   ${d.aspect}`);
      for (const g of d.groups) lines.push(`     ${pad(`${g.runtimes.join(', ')}:`, 24)} ${shorten(g.value)}`);
    }
  }
  const known = new Map<string, number>();
  for (const q of result.requests) for (const d of q.differences) if (d.known !== undefined) known.set(d.known, (known.get(d.known) ?? 0) + 1);
  if (known.size) lines.push('', 'known platform differences (not failures):');
  for (const [why, count] of known) lines.push(`  ${why} (${count}×)`);
  lines.push('');
  const failed = Object.keys(result.failed).length;
  lines.push(
    `${result.requests.length} requests on ${up.length} runtimes in ${(result.ms / 1000).toFixed(1)} s: ` +
      `${result.unexplained} unexplained difference${result.unexplained === 1 ? '' : 's'}, ${result.known} known` +
      (failed ? `, ${failed} runtime${failed === 1 ? '' : 's'} did not start` : ''),
  );
  return lines.join('\n');
}
