import { existsSync } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import { AxeBuilder } from '@axe-core/playwright';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';
import { afterEach, beforeAll, expect } from 'vitest';

/** Debian's Chromium, unless CHROMIUM_PATH names another. */
export const CHROMIUM_PATH = process.env['CHROMIUM_PATH'] || '/usr/bin/chromium';

const ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--no-first-run',
];

/** The size of the screenshots in docs/console, and of every page unless a test says otherwise. */
export const VIEWPORT = { width: 1280, height: 800 };

export const SCREENSHOTS_DIR = new URL('../../docs/console/', import.meta.url);

/** Launches the browser, or fails saying how to get one: a browser test never skips silently. */
export async function launchChromium(): Promise<Browser> {
  if (!existsSync(CHROMIUM_PATH)) {
    throw new Error(
      `Chromium not found at ${CHROMIUM_PATH}: install it with \`apt-get update && apt-get install -y chromium\`, or set CHROMIUM_PATH to a Chromium or Chrome executable.`,
    );
  }
  return chromium.launch({ executablePath: CHROMIUM_PATH, headless: true, args: ARGS });
}

export interface OpenedPage {
  page: Page;
  context: BrowserContext;
  /** What the page logged as an error, and the errors it threw: a CSP violation shows up here. */
  problems: string[];
}

export interface TestBrowser {
  /** A new browser context (its own cookies) and page, at the fixed viewport unless told. */
  open(options?: { viewport?: { width: number; height: number } }): Promise<OpenedPage>;
}

/**
 * The worker process's browser, launched by the first browser test file it runs and used by the
 * others: a launch and a first page take about three seconds of two cores. Kept on the global
 * object, which outlives this module when a file resets the module registry. Playwright ends the
 * browser when the process exits.
 */
const SHARED = Symbol.for('suppression-list.test.browser');
const holder = globalThis as typeof globalThis & { [SHARED]?: Promise<Browser> };

function sharedBrowser(): Promise<Browser> {
  holder[SHARED] ??= launchChromium().then((browser) => {
    browser.once('disconnected', () => delete holder[SHARED]);
    return browser;
  });
  return holder[SHARED];
}

/**
 * The worker's browser for the whole file, each test's pages in contexts of their own, closed after
 * it; every page's console errors fail the test that opened it.
 */
export function useBrowser(): TestBrowser {
  let browser: Browser | undefined;
  let opened: OpenedPage[] = [];
  beforeAll(async () => {
    browser = await sharedBrowser();
  });
  afterEach(async () => {
    const problems = opened.flatMap((page) => page.problems);
    await Promise.all(opened.map(({ context }) => context.close()));
    opened = [];
    expect(problems, 'errors in the browser console').toEqual([]);
  });
  return {
    async open({ viewport = VIEWPORT } = {}) {
      if (!browser) throw new Error('useBrowser(): the browser runs only inside tests');
      const context = await browser.newContext({
        viewport,
        locale: 'en-GB',
        timezoneId: 'UTC',
        acceptDownloads: true,
        reducedMotion: 'reduce',
      });
      const page = await context.newPage();
      const problems: string[] = [];
      page.on('console', (message) => {
        // A refused request's status is the page's business (it shows it in words), not a fault.
        if (
          message.type() === 'error' &&
          !/Failed to load resource: the server responded with a status of 4\d\d/.test(message.text())
        )
          problems.push(`console: ${message.text()}`);
      });
      page.on('pageerror', (error) => problems.push(`page error: ${error.message}`));
      const result = { page, context, problems };
      opened.push(result);
      return result;
    },
  };
}

/** axe-core on the page as it is: no serious or critical violation, each printed when there is one. */
export async function expectAccessible(page: Page, what: string): Promise<void> {
  // Legacy mode runs axe in the page itself; the default opens a second page to gather the results
  // of cross-origin frames, which the service's pages do not have, and took a third of each check.
  const results = await new AxeBuilder({ page }).setLegacyMode(true).analyze();
  const grave = results.violations
    .filter((violation) => violation.impact === 'serious' || violation.impact === 'critical')
    .map(
      (violation) =>
        `${violation.impact} ${violation.id}: ${violation.help} (${violation.nodes.map((node) => node.target.join(' ')).join('; ')})`,
    );
  expect(grave, `accessibility of ${what}`).toEqual([]);
}

/** A screenshot for docs/console.md, at the fixed width: the viewport, or the whole page when it is longer. */
export async function screenshot(page: Page, name: string, { fullPage = false } = {}): Promise<void> {
  await mkdir(SCREENSHOTS_DIR, { recursive: true });
  await page.screenshot({
    path: path.join(SCREENSHOTS_DIR.pathname, `${name}.png`),
    fullPage,
    animations: 'disabled',
  });
}
