// Debian's chromium, driven by playwright-core, for the browser tests: where it is, the flags it
// runs with, and a launcher with a throwaway profile. Chromium comes from scripts/install-chromium.sh
// (CI runs it); without it the tests are skipped with a message, except in CI, where that fails.
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type BrowserContext, chromium } from 'playwright-core';

export const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
export const FLAGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];
export const chromiumPresent = existsSync(CHROMIUM);

if (!chromiumPresent && process.env.CI) throw new Error(`${CHROMIUM} is missing: run scripts/install-chromium.sh`);
if (!chromiumPresent) console.warn(`browser tests skipped: ${CHROMIUM} is missing (scripts/install-chromium.sh installs it)`);

export interface Chromium {
  browser: BrowserContext;
  close(): Promise<void>;
}

/** Chromium with a fresh profile (playwright passes it as --user-data-dir), removed on close. */
export async function launchChromium(options: { viewport?: { width: number; height: number } } = {}): Promise<Chromium> {
  const profile = mkdtempSync(join(tmpdir(), 'rove-chromium-'));
  const browser = await chromium.launchPersistentContext(profile, { executablePath: CHROMIUM, headless: true, args: FLAGS, timeout: 60_000, ...options });
  return {
    browser,
    async close() {
      await browser.close();
      rmSync(profile, { recursive: true, force: true });
    },
  };
}
