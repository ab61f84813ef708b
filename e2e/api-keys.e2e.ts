// The configurator's API keys in a real Chromium at 320 px, from the keyboard: the empty list, a name
// refused blank, a named key made and shown once (it works against the management API), listed with
// its times, then revoked after confirmation (it stops working). Axe-checked at each step.
import { describe, expect, it } from 'vitest';
import { expectNoAxeViolations } from './support/browser.ts';
import { signInToConsole } from './support/sign-in.ts';
import { browserSuite } from './support/suite.ts';

const suite = browserSuite();
const ui = () => suite.foyer.urls.ui;

const managementApp = (key: string) => fetch(`${suite.foyer.urls.api}/management/app`, { headers: { 'x-api-key': key } });

describe("the configurator's API keys", () => {
  it('makes a named key shown once, lists it and revokes it, from the keyboard at 320 px', async () => {
    const page = suite.page;
    await page.setViewportSize({ width: 320, height: 800 });
    await signInToConsole(page, ui(), `/configurator/apps/${suite.foyer.demo.appId}/api-key`);
    await page.getByRole('heading', { level: 2, name: 'API key' }).waitFor();
    await page.getByText('This app has no API keys yet.').waitFor();
    await expectNoAxeViolations(page);

    const name = page.getByLabel('Key name');
    await name.focus();
    await page.keyboard.press('Enter');
    await page.getByText('Give the key a name.').waitFor();
    expect(await name.getAttribute('aria-invalid')).toBe('true');
    await expectNoAxeViolations(page);

    await name.fill('Billing back end');
    await page.keyboard.press('Enter');
    const shown = page.getByLabel('New API key “Billing back end”');
    await shown.waitFor();
    const key = await shown.inputValue();
    expect(key).toMatch(/^fyk_/);
    await page.getByText('The new key is shown only once. Copy it now.').waitFor();
    const list = page.getByRole('list', { name: 'API keys' });
    await list.getByRole('heading', { name: 'Billing back end' }).waitFor();
    await list.getByText(/Never used\./).waitFor();
    expect((await managementApp(key)).status).toBe(200);
    await expectNoAxeViolations(page);
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(320);

    await page.getByRole('button', { name: 'Revoke Billing back end' }).focus();
    await page.keyboard.press('Enter');
    const dialog = page.getByRole('dialog', { name: 'Revoke “Billing back end”?' });
    await dialog.waitFor();
    await expectNoAxeViolations(page);
    await dialog.getByRole('button', { name: 'Revoke key' }).click();
    await page.getByText('“Billing back end” no longer works.').waitFor();
    await page.getByText('This app has no API keys yet.').waitFor();
    expect((await managementApp(key)).status).toBe(401);
    await expectNoAxeViolations(page);
  });
});
