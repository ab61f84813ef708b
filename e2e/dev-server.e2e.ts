// `npm run dev`: the hosted UI and the configurator served from source by Vite's dev server inside the
// UI listener. The pages must work under the same CSP as the build (the dev server's inline scripts
// and styles allowed by its nonce only), with nothing refused in the console.
import { rm } from 'node:fs/promises';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFoyer, type TestFoyer } from '../server/testing.ts';
import { expectNoAxeViolations, launchBrowser } from './support/browser.ts';

let foyer: TestFoyer;
let browser: Browser;

beforeAll(async () => {
  // As on a clean checkout, nothing is pre-bundled yet: Vite's first scan must find every dependency the
  // pages import, or it bundles again mid-visit and reloads the page, two copies of React meanwhile.
  await rm('node_modules/.vite/deps', { recursive: true, force: true });
  [foyer, browser] = await Promise.all([startFoyer({ uiDev: true }), launchBrowser()]);
}, 180_000);

afterAll(async () => {
  await browser?.close();
  await foyer?.close();
});

describe('development server', () => {
  it('serves the login and the configurator from source under a nonce-only CSP', async () => {
    const context = await browser.newContext();
    const page = await context.newPage();
    const refused: string[] = [];
    const loads: string[] = [];
    page.on('load', () => loads.push(new URL(page.url()).pathname));
    page.on('console', (message) => {
      if (message.type() === 'error') refused.push(message.text());
    });
    const answer = await page.goto(`${foyer.urls.ui}/auth/login`);
    const policy = answer?.headers()['content-security-policy'] ?? '';
    expect(policy).toMatch(/script-src 'self' 'nonce-[A-Za-z0-9+/=]+'/);
    expect(policy).not.toContain('unsafe-inline');
    await expect.poll(() => page.getByRole('textbox', { name: 'Email' }).isVisible(), { timeout: 120_000 }).toBe(true);
    await expect.poll(() => page.evaluate(() => [...document.scripts].some((script) => script.src.includes('/src/main.tsx')))).toBe(true);
    await expectNoAxeViolations(page);
    await page.waitForLoadState('networkidle');

    await page.goto(`${foyer.urls.ui}/configurator`);
    await expect.poll(() => page.getByRole('heading', { level: 1 }).count(), { timeout: 120_000 }).toBeGreaterThan(0);
    await page.waitForLoadState('networkidle');
    expect(refused).toEqual([]);
    expect(loads).toEqual(['/auth/login', '/configurator']);
    await context.close();
  });
});
