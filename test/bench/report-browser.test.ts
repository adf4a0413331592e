// The benchmark report as a reader sees it: rendered by the report's own writer (bench/report/write.ts)
// from a fixture run of every scenario on every runtime, and from docs/benchmarks/results.json when a
// run has been committed, then opened in Chromium at a laptop's 1280 px. Every chart loads and is
// labelled, nothing overflows sideways, and the page fetches nothing beyond its own files.
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REPORT_JSON } from '../../bench/lib/config.ts';
import type { BenchResult } from '../../bench/lib/result.ts';
import { writeReports } from '../../bench/report/write.ts';
import { type Chromium, chromiumPresent, launchChromium } from '../browser/chromium.ts';
import { fixture } from './report-fixture.ts';

const dir = mkdtempSync(join(tmpdir(), 'rove-bench-report-browser-'));
// The fixture always; the committed run too, rendered again by the same writer into the temp dir.
const reports: [string, BenchResult][] = [['fixture', fixture()]];
if (existsSync(REPORT_JSON)) reports.push(['docs/benchmarks/results.json', JSON.parse(readFileSync(REPORT_JSON, 'utf8')) as BenchResult]);

describe.skipIf(!chromiumPresent).each(reports)('the benchmark report (%s) in Chromium at 1280 px', (name, result) => {
  let chromium: Chromium;
  let html: string;
  let root: string;
  beforeAll(async () => {
    root = join(dir, name.replace(/\W+/g, '-'));
    html = resolve(writeReports(result, join(root, 'results.json')).html);
    chromium = await launchChromium({ viewport: { width: 1280, height: 900 } });
  }, 120_000);
  afterAll(async () => {
    await chromium?.close();
    rmSync(root, { recursive: true, force: true });
  });

  it('loads every chart, labelled, fits the width, and requests nothing but its own files', async () => {
    const page = await chromium.browser.newPage();
    const requested: string[] = [];
    page.on('request', (r) => requested.push(r.url()));
    const errors: string[] = [];
    page.on('pageerror', (e) => errors.push(e.message));
    await page.goto(pathToFileURL(html).href, { waitUntil: 'load' });

    expect(await page.title()).toBe('Rove benchmarks');
    // biome-ignore lint/performance/useDomNodeTextContent: what the page shows
    const top = await page.locator('main').innerText();
    expect(top).toMatch(/Commit: .+\nDate: .+ UTC\nCommand: npm run bench/);

    const images = await page.evaluate(() =>
      [...document.images].map((img) => ({
        src: img.getAttribute('src') ?? '',
        alt: img.alt,
        loaded: img.complete && img.naturalWidth > 0,
        width: img.getBoundingClientRect().width,
      })),
    );
    expect(images.length).toBeGreaterThan(2);
    for (const img of images) {
      expect(img.loaded, img.src).toBe(true);
      expect(img.alt, img.src).not.toBe('');
      expect(img.width, img.src).toBeLessThanOrEqual(1280);
      // Each chart names itself, its unit on the y axis, and its series in a legend.
      const svg = readFileSync(join(root, img.src), 'utf8');
      expect(svg, img.src).toMatch(/<title>[^<]+<\/title>/);
      expect(svg, img.src).toMatch(/transform="rotate\(-90[^>]*>[^<]*(req\/s|×)/);
      expect(svg, img.src).toMatch(/<rect [^>]*width="11" height="11"/);
    }

    // Nothing wider than the window: not the page, not a table inside its scroll box.
    const widths = await page.evaluate(() => ({
      page: document.documentElement.scrollWidth,
      window: document.documentElement.clientWidth,
      boxes: [...document.querySelectorAll('.scroll, figure, pre')].map((e) => [e.scrollWidth, e.clientWidth]),
    }));
    expect(widths.page).toBeLessThanOrEqual(widths.window);
    for (const [scroll, client] of widths.boxes) expect(scroll).toBeLessThanOrEqual(client! + 1);

    const base = pathToFileURL(root).href;
    expect(requested.filter((u) => !u.startsWith(base))).toEqual([]);
    expect(errors).toEqual([]);
    await page.close();
  }, 90_000);
});

afterAll(() => rmSync(dir, { recursive: true, force: true }));
