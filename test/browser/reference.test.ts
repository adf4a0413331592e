// The contract fixture's API reference page (referenceHandler + Scalar's standalone script, served
// by the app itself: no network) in Chromium: the page renders every declared operation.
// Runs on node and workerd (ROVE_BROWSER_RUNTIMES as in notes.test.ts); chromium from scripts/install-chromium.sh.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RUNTIMES, type Running, type Runtime, start } from '../conformance/servers.ts';
import { type Chromium, chromiumPresent, launchChromium } from './chromium.ts';

const wanted = (process.env.ROVE_BROWSER_RUNTIMES ?? 'node,workerd').split(',').map((s) => s.trim());
const runtimes = RUNTIMES.filter((r) => wanted.includes(r));

describe.skipIf(!chromiumPresent).each(runtimes)('API reference page in Chromium on %s', (runtime: Runtime) => {
  let server: Running;
  let chromium: Chromium;
  beforeAll(async () => {
    server = await start(runtime, 'test/contract/fixture', '/');
    chromium = await launchChromium();
  }, 120_000);
  afterAll(async () => {
    await chromium?.close();
    await server?.stop();
  });

  it('renders the declared operations from /openapi.json', async () => {
    const page = await chromium.browser.newPage();
    const errors: string[] = [];
    page.on('pageerror', (e) => errors.push(e.message));
    const loaded: string[] = [];
    page.on('response', (r) => loaded.push(`${r.status()} ${new URL(r.url()).pathname}`));
    await page.goto(`${server.url}/reference`);
    // The document's title, then each operation's summary and path, as Scalar renders them.
    await page.getByText('Users', { exact: true }).first().waitFor({ timeout: 30_000 });
    for (const text of ['List users', 'One user']) await page.getByText(text).first().waitFor({ timeout: 30_000 });
    // biome-ignore lint/performance/useDomNodeTextContent: what the page shows, not the text of its scripts
    const body = await page.locator('body').innerText();
    for (const path of ['/v1/users', '/v1/users/{id}/name', '/v1/files/{dir}/{name}', '/plain/{slug}']) expect(body).toContain(path);
    expect(loaded).toEqual(expect.arrayContaining(['200 /reference', '200 /reference/standalone.js', '200 /openapi.json']));
    expect(errors).toEqual([]);
    await page.close();
  }, 90_000);
});
