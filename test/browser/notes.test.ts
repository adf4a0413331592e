// examples/notes in a real browser: Debian's chromium driven by playwright-core.
// Logs in through the form, checks the stylesheet and the nonced script, adds a note,
// and checks that the Content-Security-Policy blocks an inline script without the nonce.
// Runs against the node and workers entries (ROVE_BROWSER_RUNTIMES=node,deno,... for others).
// Chromium comes from scripts/install-chromium.sh (CI runs it); see README "Browser tests".
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RUNTIMES, type Running, type Runtime, start } from '../conformance/servers.ts';
import { type Chromium, chromiumPresent, launchChromium } from './chromium.ts';

const wanted = (process.env.ROVE_BROWSER_RUNTIMES ?? 'node,workerd').split(',').map((s) => s.trim());
const runtimes = RUNTIMES.filter((r) => wanted.includes(r));

describe.skipIf(!chromiumPresent).each(runtimes)('examples/notes in Chromium on %s', (runtime: Runtime) => {
  let server: Running;
  let chromium: Chromium;
  beforeAll(async () => {
    server = await start(runtime, 'examples/notes', '/');
    chromium = await launchChromium();
  }, 120_000);
  afterAll(async () => {
    await chromium?.close();
    await server?.stop();
  });

  it('logs in, lands on / styled, runs only the nonced script, and adds a note', async () => {
    const page = await chromium.browser.newPage();
    const violations: string[] = [];
    page.on('console', (msg) => {
      if (msg.type() === 'error' && /Content Security Policy/i.test(msg.text())) violations.push(msg.text());
    });

    await page.goto(`${server.url}/login`);
    expect(await page.locator('input[type=hidden][name=_csrf]').getAttribute('value')).toBeTruthy();
    await page.fill('input[name=name]', 'ada');
    await Promise.all([page.waitForURL(`${server.url}/`), page.click('button[type=submit]')]);
    await page.waitForLoadState('load');

    expect(await page.textContent('h1')).toBe('Notes of ada');
    // The stylesheet is applied: its colours and reset reach the computed style.
    const style = await page.evaluate(() => ({
      brand: getComputedStyle(document.querySelector('.brand')!).color,
      bodyMargin: getComputedStyle(document.body).marginTop,
    }));
    expect(style).toEqual({ brand: 'rgb(47, 111, 222)', bodyMargin: '0px' });
    // The layout's nonced inline script ran, with the user the json filter wrote into it.
    expect(await page.evaluate(() => document.documentElement.dataset.script)).toBe('nonced');
    expect(await page.evaluate(() => document.documentElement.dataset.user)).toBe('ada');

    // An inline script without the nonce (what an injection would add) is blocked by the CSP.
    const outcome = await page.evaluate(
      () =>
        new Promise<{ ran: boolean; violated: string | null }>((resolve) => {
          let violated: string | null = null;
          document.addEventListener('securitypolicyviolation', (e) => {
            violated = e.effectiveDirective;
          });
          const s = document.createElement('script');
          s.textContent = 'window.__unnonced = true;';
          document.body.append(s);
          setTimeout(() => resolve({ ran: (window as unknown as { __unnonced?: boolean }).__unnonced === true, violated }), 300);
        }),
    );
    expect(outcome).toEqual({ ran: false, violated: 'script-src-elem' });
    // The same script with the page's nonce runs: the policy is the nonce, not "no scripts".
    const nonced = await page.evaluate(() => {
      const s = document.createElement('script');
      s.nonce = document.querySelector<HTMLScriptElement>('script[nonce]')!.nonce;
      s.textContent = 'window.__nonced = true;';
      document.body.append(s);
      return (window as unknown as { __nonced?: boolean }).__nonced === true;
    });
    expect(nonced).toBe(true);
    expect(violations.length).toBeGreaterThan(0);

    // The same, written into the page's HTML: the server's page with one extra inline <script>
    // without the nonce (as a stored injection would put it), served with the server's own headers.
    await page.route(`${server.url}/`, async (route) => {
      const res = await route.fetch();
      const html = (await res.text()).replace('</main>', '</main><script>document.documentElement.dataset.injected = "ran";</script>');
      await route.fulfill({ response: res, body: html });
    });
    await page.goto(`${server.url}/`);
    expect(await page.evaluate(() => [document.documentElement.dataset.script, document.documentElement.dataset.injected])).toEqual(['nonced', undefined]);
    await page.unroute(`${server.url}/`);

    await page.fill('input[name=text]', 'written in Chromium <b>not bold</b>');
    await Promise.all([page.waitForURL(`${server.url}/`), page.click('form.add button[type=submit]')]);
    expect(await page.locator('ul.notes li').allTextContents()).toContain('written in Chromium <b>not bold</b>');
    expect(await page.locator('ul.notes b').count()).toBe(0);
    await page.close();
  }, 90_000);
});
