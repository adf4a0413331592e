// The trace timeline of docs/observability.md (dev/trace-timeline.ts, drawn by npm run
// docs:trace from a real trace) as a reader sees it: in Chromium, every span has its row, its
// label and its bar inside the picture, and no two labels overlap.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ReceivedSpan } from '../../dev/otlp-receiver.ts';
import { ROOT } from '../../dev/proc.ts';
import { renderTimeline, treeOrder } from '../../dev/trace-timeline.ts';
import { type Chromium, chromiumPresent, launchChromium } from '../browser/chromium.ts';

const SVG = join(ROOT, 'docs/images/trace-timeline.svg');

const span = (spanId: string, parentSpanId: string, name: string, start: number, end: number, kind = 1): ReceivedSpan => ({
  traceId: 't',
  spanId,
  parentSpanId,
  name,
  kind,
  startNs: BigInt(start * 1e6),
  endNs: BigInt(end * 1e6),
  attributes: {},
  status: 0,
  events: [],
  links: [],
  service: 's',
});

describe('the trace timeline', () => {
  it('orders spans as a tree: each parent, then its children by start', () => {
    const rows = treeOrder([
      span('c2', 'a', 'second', 5, 6),
      span('b', 'a', 'first', 1, 4),
      span('a', '', 'root', 0, 10, 2),
      span('d', 'b', 'inner', 2, 3),
      span('x', 'remote', 'orphan', 7, 8),
    ]);
    expect(rows.map((r) => `${r.depth}:${r.span.name}`)).toEqual(['0:root', '1:first', '2:inner', '1:second', '0:orphan']);
  });

  it('escapes what it writes', () => {
    expect(renderTimeline([span('a', '', '<script>&', 0, 1)], 'a "title"')).not.toMatch(/<script>|"title"/);
  });

  it('docs/observability.md shows it, with alt text', () => {
    expect(readFileSync(join(ROOT, 'docs/observability.md'), 'utf8')).toMatch(/!\[[^\]]{20,}\]\(images\/trace-timeline\.svg\)/);
  });
});

describe.skipIf(!chromiumPresent)('docs/images/trace-timeline.svg in Chromium', () => {
  let chromium: Chromium;
  beforeAll(async () => {
    chromium = await launchChromium({ viewport: { width: 1280, height: 900 } });
  }, 120_000);
  afterAll(async () => {
    await chromium?.close();
  });

  it('draws every span inside the picture, labels apart, the second service under the first', async () => {
    const page = await chromium.browser.newPage();
    await page.goto(pathToFileURL(SVG).href, { waitUntil: 'load' });
    const drawn = await page.evaluate(() => {
      const svg = document.querySelector('svg')!.getBoundingClientRect();
      const box = (e: Element | null) => {
        const r = e!.getBoundingClientRect();
        return { left: r.left, right: r.right, top: r.top, bottom: r.bottom };
      };
      return {
        svg: box(document.querySelector('svg')),
        width: svg.width,
        title: document.querySelector('svg > title')?.textContent ?? '',
        spans: [...document.querySelectorAll('g.span')].map((g) => ({
          label: box(g.querySelector('.label')),
          bar: box(g.querySelector('.bar')),
          duration: box(g.querySelector('.duration')),
          text: g.querySelector('.label')!.textContent,
        })),
      };
    });
    expect(drawn.title).toMatch(/GET \/api\/users/);
    expect(drawn.width).toBeLessThanOrEqual(1280);
    expect(drawn.spans.length).toBeGreaterThanOrEqual(9);
    const inside = (r: { left: number; right: number; top: number; bottom: number }) =>
      r.left >= drawn.svg.left && r.right <= drawn.svg.right + 0.5 && r.top >= drawn.svg.top && r.bottom <= drawn.svg.bottom;
    for (const s of drawn.spans) {
      expect(inside(s.label), s.text!).toBe(true);
      expect(inside(s.bar), s.text!).toBe(true);
      expect(inside(s.duration), s.text!).toBe(true);
      // The label ends before the plot starts.
      expect(s.label.right, s.text!).toBeLessThan(drawn.spans[0].bar.left);
    }
    for (let i = 1; i < drawn.spans.length; i++) expect(drawn.spans[i].label.top).toBeGreaterThanOrEqual(drawn.spans[i - 1].label.bottom - 1);
    // Two services, one trace: the users service's server span is drawn under the gateway's client span.
    const texts = drawn.spans.map((s) => s.text);
    expect(texts[0]).toBe('gateway: GET /api/users/:id');
    expect(texts.indexOf('users: GET /api/users/:id')).toBe(texts.indexOf('gateway: GET') + 1);
    await page.close();
  }, 60_000);
});
