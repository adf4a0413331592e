import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { ColdStartEntry, ColdStartResult } from '../../bench/lib/cold-start-result.ts';
import { SCENARIO_GROUPS } from '../../bench/lib/groups.ts';
import { type BenchResult, emptyRow, median, type Row } from '../../bench/lib/result.ts';
import { SCENARIO_PIPELINING_REASON } from '../../bench/lib/runtime-load.ts';
import { SCENARIO_IDS } from '../../bench/lib/scenarios.ts';
import { groupSpread, spreadText } from '../../bench/lib/spread.ts';
import { buildDocument } from '../../bench/report/document.ts';
import { inline, renderHtml } from '../../bench/report/html.ts';
import { markdownTable, renderMarkdown } from '../../bench/report/markdown.ts';
import { groupSummaryText, summaryText } from '../../bench/report/summary.ts';
import { barChart, niceScale } from '../../bench/report/svg.ts';
import { writeReports } from '../../bench/report/write.ts';

function measured(runtime: Row['runtime'], framework: Row['framework'], scenario: string, rps: number, cpu: number): Row {
  return {
    ...emptyRow(runtime, framework, scenario, null),
    ok: true,
    rps: { avg: rps, p50: rps },
    latencyMs: { avg: 12.5, p50: 12, p97_5: 20, p99: 25, max: 80 },
    requests: rps * 10,
    errors: 0,
    timeouts: 0,
    non2xx: 0,
    cpuUsPerReq: cpu,
    rssPeakMB: 61.2,
    coldStartMs: 140,
  };
}

const result: BenchResult = {
  meta: {
    date: '2026-01-02T03:04:05.000Z',
    host: { cpus: 2, cpuModel: 'Test CPU', memGiB: 8, os: 'TestOS' },
    versions: { node: '20.0.0', deno: '2.0.0' },
    command: 'npm run bench',
    git: { commit: '0123456789abcdef0123456789abcdef01234567', dirty: false },
  },
  config: { profile: 'default', connections: 100, pipelining: 10, durationS: 10, warmupS: 3, rounds: 1 },
  rows: [
    measured('node', 'rove', 'test', 45_000, 22),
    measured('node', 'hono', 'test', 40_000, 25),
    measured('node', 'raw', 'test', 60_000, 15),
    measured('deno', 'rove', 'test', 98_000, 9.8),
    measured('deno', 'hono', 'test', 90_000, 10.5),
    measured('deno', 'raw', 'test', 100_000, 9.5),
    measured('node', 'rove', 'echo', 20_000, 50),
    measured('node', 'raw', 'echo', 25_000, 40),
    { ...emptyRow('node', 'hono', 'echo', 'check failed, not measured: POST /json: expected status 200, got 500 | pipe'), coldStartMs: 120 },
  ],
};

describe('bench report writers', () => {
  const doc = buildDocument(result, 'run-charts');
  const md = renderMarkdown(doc);

  it('says at the top which commit, date and command produced it, one line each', () => {
    expect(md).toMatch(
      /^# Rove benchmarks\n\n- \*\*Commit:\*\* `0123456789ab` \(clean working tree\)\n- \*\*Date:\*\* 2026-01-02 03:04 UTC\n- \*\*Command:\*\* `npm run bench`\n/,
    );
    const dirty = renderMarkdown(buildDocument({ ...result, meta: { ...result.meta, git: { commit: 'f'.repeat(40), dirty: true } } }, 'c'));
    expect(dirty).toContain('- **Commit:** `ffffffffffff` with uncommitted changes');
  });

  it('opens with the summary: runtime × scenario group, the geometric mean of Rove over Hono and over raw', () => {
    const summary = md.slice(md.indexOf('## Summary'), md.indexOf('## Detail'));
    // node basics: rove/hono from test alone (hono failed echo's check): 45/40; rove/raw: √(45/60 × 20/25).
    expect(summary).toContain('| Runtime | Basics |');
    expect(summary).toContain('| Node | 1.13× |');
    expect(summary).toContain('| Node | 0.77× |');
    expect(summary).toContain('| Deno | 0.98× |');
    expect(summary).toContain("![Rove's req/s over Hono per scenario group and runtime](run-charts/summary-hono.svg)");
    expect(md.indexOf('## Summary')).toBeLessThan(md.indexOf('## Detail'));
  });

  it('takes a group ratio per round, then the median and spread over the rounds', () => {
    const rounds = (fw: Row['framework'], scenario: string, rps: number[]): Row => ({
      ...measured('node', fw, scenario, median(rps), 10),
      roundsRps: rps,
      roundsCpuUsPerReq: rps.map(() => 10),
    });
    const rows = [
      rounds('rove', 'test', [100, 110, 90]),
      rounds('hono', 'test', [100, 100, 100]),
      rounds('rove', 'text', [50, 60, 40]),
      rounds('hono', 'text', [50, 50, 50]),
    ];
    // Per round: √(1 × 1), √(1.1 × 1.2), √(0.9 × 0.8).
    const s = groupSpread(rows, 'node', ['test', 'text', 'json-nested'], 'rps', 'hono')!;
    expect(s.scenarios).toBe(2);
    expect(spreadText(s)).toBe('1.00× (0.85–1.15)');
    expect(groupSpread(rows, 'node', ['test'], 'rps', 'raw')).toBeNull();
    // A failed row's rounds are not a measurement, even where one round answered a few requests.
    const failed = (fw: Row['framework'], rps: number[]): Row => ({ ...rounds(fw, 'sql1', rps), ok: false, rps: { avg: 0, p50: 0 } });
    expect(groupSpread([failed('rove', [0, 3.5, 0]), failed('hono', [0, 6, 0])], 'node', ['sql1'], 'rps', 'hono')).toBeNull();
    expect(groupSummaryText({ ...result, config: { ...result.config, rounds: 3 }, rows }).join('\n')).toContain('1.00× (0.85–1.15)');
  });

  it('puts every scenario in exactly one group', () => {
    const placed = SCENARIO_GROUPS.flatMap((g) => g.scenarios);
    expect([...placed].sort()).toEqual([...SCENARIO_IDS].sort());
    expect(new Set(placed).size).toBe(placed.length);
  });

  it('details each group: req/s, p99, CPU per request and the ratios, marking a missed target in bold', () => {
    // node test: raw 45k/60k misses 0.90 (bold); CPU raw 15 / rove 22 misses 0.90; Hono 45/40 and 25/22 meet 1.0.
    expect(md).toContain('| `test` | Node | 45,000 | 40,000 | 60,000 | 25 | 25 | 25 | 22.0 | 25.0 | 15.0 | 1.13× | **0.75×** | 1.14× | **0.68×** |  |');
    expect(md).toContain('| `echo` | Node | 20,000 | failed | 25,000 | 25 | – | 25 | 50.0 | – | 40.0 | – | 0.80× | – | **0.80×** |  |');
    expect(md).toContain('![Requests per second for test per runtime and framework](run-charts/rps-test.svg)');
  });

  it('names in a column the rows that ran with their own load, and why', () => {
    const own = (r: Row): Row => ({ ...r, load: { connections: 100, pipelining: 1, reason: SCENARIO_PIPELINING_REASON } });
    const text = renderMarkdown(buildDocument({ ...result, rows: [...result.rows.slice(0, 3), ...result.rows.slice(3, 6).map(own)] }, 'c'));
    expect(text).toMatch(/\| `test` \| Deno \|.*\| p1: database \|/);
    expect(text).toMatch(/\| `test` \| Node \|.*\| {2}\|/);
  });

  it('lists failed rows with their reason and escapes pipes in table cells', () => {
    expect(md).toContain('node · hono · `echo`: check failed, not measured: POST /json: expected status 200, got 500 | pipe');
    expect(markdownTable({ columns: [{ label: 'a' }], rows: [['x | y']] })).toContain('x \\| y');
  });

  it('links methods.md and renders an HTML page that loads the chart files and nothing remote', () => {
    expect(md).toContain('[methods.md](methods.md)');
    const html = renderHtml(doc);
    expect(html.startsWith('<!DOCTYPE html>')).toBe(true);
    expect(html).not.toMatch(/<script|<link|https?:\/\/(?!github\.com)/i);
    expect(html.match(/<img /g)?.length).toBe(doc.charts.length);
    expect(html).toContain('<img src="run-charts/rps-test.svg" alt="Requests per second for test per runtime and framework" width="760" height="340">');
    expect(html).toContain('<td class="num bad"><strong>0.75×</strong></td>');
    expect(inline('a <b> `c<d>` **e** [f](https://x.y/?a=1&b=2)')).toBe(
      'a &lt;b&gt; <code>c&lt;d&gt;</code> <strong>e</strong> <a href="https://x.y/?a=1&amp;b=2">f</a>',
    );
  });

  it('renders the cold starts: runtime × app × mode, median with the range, Rove over Hono and over bare', () => {
    const entry = (app: ColdStartEntry['app'], ms: number): ColdStartEntry => ({
      runtime: 'node',
      app,
      mode: 'bundled',
      entry: `bench/cold/${app}.ts`,
      request: 'GET /',
      bundleBytes: 26_852,
      bundleGzipBytes: 10_502,
      samples: [],
      median: { firstAnswerMs: ms, cpuMs: ms * 1.5, startupMs: null },
      spread: { firstAnswerMs: [ms - 5, ms + 5], cpuMs: null, startupMs: null },
      error: null,
    });
    const coldStart: ColdStartResult = {
      date: '2026-01-02T04:00:00.000Z',
      command: 'npm run bench:cold',
      starts: 20,
      entries: [entry('two-route-hono', 50), entry('two-route-rove', 45), entry('two-route-bare', 40)],
    };
    const text = renderMarkdown(buildDocument({ ...result, coldStart }, 'c'));
    expect(text.indexOf('## Cold start')).toBeGreaterThan(text.indexOf('## Summary'));
    expect(text.indexOf('## Cold start')).toBeLessThan(text.indexOf('## Detail'));
    expect(text).toContain('| Node | Two-route app, Rove | bundled | 45 (40–50) | 68 | 26.9 | 0.90× | 1.13× |');
    expect(text).toContain('| Node | Two-route app, Hono | bundled | 50 (45–55) | 75 | 26.9 |  |  |');
    // With samples, the ratio is taken round by round and given with its quartiles.
    const timed = (e: ColdStartEntry, ms: number[]): ColdStartEntry => ({
      ...e,
      samples: ms.map((firstAnswerMs) => ({ firstAnswerMs, cpuMs: null, startupMs: null })),
    });
    const [hono, rove, bare] = coldStart.entries as [ColdStartEntry, ColdStartEntry, ColdStartEntry];
    const paired = { ...coldStart, entries: [timed(hono, [50, 50, 50, 50]), timed(rove, [40, 45, 45, 50]), timed(bare, [40, 40, 40, 40])] };
    expect(renderMarkdown(buildDocument({ ...result, coldStart: paired }, 'c'))).toContain('| 0.90× (0.88–0.93) | 1.13× (1.09–1.16) |');
  });
  it('draws grouped bar charts with a nice axis, values and n/a for missing bars', () => {
    expect(niceScale(93_000)).toEqual({ max: 100_000, step: 20_000 });
    expect(niceScale(0)).toEqual({ max: 1, step: 0.2 });
    const svg = barChart({
      title: 'T <&>',
      groups: ['node', 'deno'],
      series: [
        { name: 'rove', color: '#00f' },
        { name: 'raw', color: '#888' },
      ],
      values: [
        [45_000, 60_000],
        [98_000, null],
      ],
      unit: 'req/s',
    });
    expect(svg).toMatch(/^<svg xmlns="http:\/\/www\.w3\.org\/2000\/svg"/);
    expect(svg.trim().endsWith('</svg>')).toBe(true);
    expect(svg).toContain('<title>T &lt;&amp;&gt;</title>');
    expect(svg).toContain('>98.0k</text>');
    expect(svg).toContain('>n/a</text>');
    expect(svg.match(/<rect [^>]*fill="#00f"/g)?.length).toBe(3); // two bars + the legend swatch
  });

  it('prints a terminal summary with the ratios per runtime and per group', () => {
    const text = summaryText(result);
    expect(text).toContain('node');
    expect(text).toMatch(/test\s+45\.0k\s+40\.0k\s+60\.0k/);
    expect(text).toContain('8/9 rows ok; failed: node/hono/echo');
    expect(text).toMatch(/req\/s rove\/raw, geometric mean per scenario group[\s\S]*node\s+0\.77×/);
  });

  const dir = mkdtempSync(join(tmpdir(), 'rove-bench-report-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('writes FILE.json, FILE.md, FILE.html and FILE-charts/ beside each other', () => {
    const w = writeReports(result, join(dir, 'run.json'));
    expect(JSON.parse(readFileSync(w.json, 'utf8'))).toEqual(result);
    expect(readFileSync(w.markdown, 'utf8')).toBe(md);
    expect(readFileSync(w.html, 'utf8')).toContain('<title>Rove benchmarks</title>');
    expect(readdirSync(join(dir, 'run-charts')).sort()).toEqual(['rps-echo.svg', 'rps-test.svg', 'summary-hono.svg', 'summary-raw.svg']);
  });

  it("writes a file named results.json as its directory's report: README.md, report.html, charts/", () => {
    const sub = join(dir, 'benchmarks');
    const w = writeReports(result, join(sub, 'results.json'));
    expect(w.markdown).toBe(join(sub, 'README.md'));
    expect(w.html).toBe(join(sub, 'report.html'));
    expect(readFileSync(w.markdown, 'utf8')).toContain('](charts/summary-raw.svg)');
    expect(readdirSync(sub).sort()).toEqual(['README.md', 'charts', 'report.html', 'results.json']);
  });
});
