// Workspace logo upload in a real Chromium: an owner picks a file on the workspace page; a refused
// file says why; the new logo shows on the page, in the signed-in header and in the workspace picker.
// Axe-checked, keyboard-reachable, within 320 px.
import { describe, expect, it } from 'vitest';
import { expectNoAxeViolations } from './support/browser.ts';
import { signInToWorkspace } from './support/sign-in.ts';
import { browserSuite } from './support/suite.ts';

const suite = browserSuite();
const ui = () => suite.foyer.urls.ui;
const owner = () => suite.foyer.demo.users[0]!;

// A 1×1 PNG.
const PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==', 'base64');

describe('workspace logo upload', () => {
  it('refuses a file that is not an image, then shows an uploaded logo on the page, in the header and in the picker', async () => {
    const page = suite.page;
    await page.setViewportSize({ width: 320, height: 640 });
    await signInToWorkspace(page, ui());
    await page.goto(`${ui()}/user-management/workspace`);
    const picker = page.getByLabel('Upload a new logo');
    await picker.waitFor();
    await picker.focus();
    expect(await page.evaluate(() => document.activeElement?.getAttribute('type'))).toBe('file');
    expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);
    await expectNoAxeViolations(page);

    await picker.setInputFiles({
      name: 'logo.svg',
      mimeType: 'image/svg+xml',
      buffer: Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"/>'),
    });
    await page.getByRole('alert').filter({ hasText: 'This file cannot be used: choose a PNG, JPEG, GIF or WebP image.' }).waitFor();
    expect(await picker.getAttribute('aria-invalid')).toBe('true');
    await expectNoAxeViolations(page);

    await picker.setInputFiles({ name: 'logo.png', mimeType: 'image/png', buffer: PNG });
    await page.getByRole('status').filter({ hasText: 'The new logo has been saved.' }).waitFor();
    const assets = new RegExp(`^${suite.foyer.urls.api}/${suite.foyer.demo.appId}/assets/`);
    await expect.poll(() => page.getByRole('figure').getByRole('img', { name: 'Acme logo' }).getAttribute('src')).toMatch(assets);
    // The header follows once the renewed tokens name the logo.
    await expect.poll(() => page.getByRole('banner').getByRole('img', { name: 'Acme logo' }).getAttribute('src')).toMatch(assets);
    await expectNoAxeViolations(page);

    const elsewhere = await suite.browser.newContext();
    const other = await elsewhere.newPage();
    await other.goto(ui());
    await other.getByLabel('Email').fill(owner().email);
    await other.getByRole('button', { name: 'Continue' }).click();
    await other.getByLabel('Password').fill(owner().password);
    await other.getByRole('button', { name: 'Sign in' }).click();
    const acme = other.locator('label').filter({ hasText: 'Acme' });
    await expect.poll(() => acme.locator('img').getAttribute('src')).toMatch(assets);
    await elsewhere.close();
  });
});
