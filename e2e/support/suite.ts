// The frame every browser test file shares: one Foyer and one Chromium per file, a fresh browser
// context and page per test.
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, beforeEach } from 'vitest';
import { startFoyer, type TestFoyer } from '../../server/testing.ts';
import type { ServerConfig } from '../../server/config.ts';
import { launchBrowser } from './browser.ts';

export interface BrowserSuite {
  foyer: TestFoyer;
  browser: Browser;
  context: BrowserContext;
  page: Page;
}

/**
 * Registers the hooks; `prepare` runs once the server is up, before the first test; `config`, before
 * it starts, answers settings of the server's own (a local stand-in's address, say).
 */
export function browserSuite(prepare?: (foyer: TestFoyer) => Promise<void>, config?: () => Promise<Partial<ServerConfig>>): BrowserSuite {
  const suite = {} as BrowserSuite;
  beforeAll(async () => {
    const overrides = (await config?.()) ?? {};
    [suite.foyer, suite.browser] = await Promise.all([startFoyer(overrides), launchBrowser()]);
    await prepare?.(suite.foyer);
  });
  afterAll(async () => {
    await suite.browser?.close();
    await suite.foyer?.close();
  });
  beforeEach(async () => {
    suite.context = await suite.browser.newContext();
    suite.page = await suite.context.newPage();
  });
  afterEach(async () => {
    await suite.context?.close();
  });
  return suite;
}
