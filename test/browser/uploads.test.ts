// examples/uploads in a real browser: Chromium posts a 50 MB file through the form and sees the
// result page with its size and hash; a file over the limit gets a readable 413 page. Runs against
// the node entry (ROVE_BROWSER_RUNTIMES=node,workerd,… adds others; the same uploads reach R2 under
// workerd in test/conformance/uploads.test.ts).
import { createHash } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RUNTIMES, type Running, type Runtime, start } from '../conformance/servers.ts';
import { pattern } from '../uploads/helpers.ts';
import { type Chromium, chromiumPresent, launchChromium } from './chromium.ts';

const wanted = (process.env.ROVE_BROWSER_RUNTIMES ?? 'node').split(',').map((s) => s.trim());
const runtimes = RUNTIMES.filter((r) => wanted.includes(r));
const MB = 1000 * 1000;
const LIMIT = 60 * 1024 * 1024;

describe.skipIf(!chromiumPresent).each(runtimes)('examples/uploads in Chromium on %s', (runtime: Runtime) => {
  let server: Running;
  let chromium: Chromium;
  const dir = mkdtempSync(join(tmpdir(), 'rove-browser-uploads-'));
  const files = { ok: join(dir, 'holiday.png'), over: join(dir, 'too-big.bin') };
  let okHash = '';
  beforeAll(async () => {
    // A PNG signature, then 50 MB of pattern bytes; and one 2 MiB past the limit.
    const ok = pattern(50 * MB);
    ok.set([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
    writeFileSync(files.ok, ok);
    okHash = createHash('sha256').update(ok).digest('hex');
    writeFileSync(files.over, pattern(LIMIT + 2 * 1024 * 1024));
    server = await start(runtime, 'examples/uploads', '/', { UPLOAD_DIR: join(dir, 'store'), MAX_FILE_SIZE: String(LIMIT) }, { MAX_FILE_SIZE: String(LIMIT) });
    chromium = await launchChromium();
  }, 120_000);
  afterAll(async () => {
    await chromium?.close();
    await server?.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  it('uploads a 50 MB file through the form and shows the result page', async () => {
    const page = await chromium.browser.newPage();
    await page.goto(`${server.url}/`);
    await page.fill('input[name=description]', 'holiday <photos>');
    await page.setInputFiles('input[name=file]', files.ok);
    await Promise.all([page.waitForURL(`${server.url}/upload`, { timeout: 60_000 }), page.click('button[type=submit]')]);
    expect(await page.textContent('h1')).toBe('Uploaded');
    expect(await page.textContent('.description')).toBe('holiday <photos>');
    expect(await page.textContent('td.name')).toBe('holiday.png');
    expect(await page.textContent('td.size')).toBe(String(50 * MB));
    expect(await page.textContent('td.kind')).toBe('png');
    if (runtime !== 'workerd') expect(await page.textContent('td.sha256')).toBe(okHash);
    await page.close();
  }, 90_000);

  it('shows a readable page for a file over the limit', async () => {
    const page = await chromium.browser.newPage();
    await page.goto(`${server.url}/`);
    await page.setInputFiles('input[name=file]', files.over);
    const [response] = await Promise.all([page.waitForResponse(`${server.url}/upload`, { timeout: 60_000 }), page.click('button[type=submit]')]);
    expect(response.status()).toBe(413);
    await page.waitForLoadState('load');
    expect(await page.textContent('h1')).toBe('413 Content Too Large');
    expect(await page.textContent('p')).toBe(`A file is larger than ${LIMIT} bytes`);
    await page.close();
  }, 90_000);
});
