// The configurator's credentials of Apple and Microsoft in a real Chromium: Apple's team id, key id and
// .p8 private key (a key that cannot sign Apple's ES256 client secret is refused at its field), and
// which Microsoft accounts sign in; saved as the draft, the key never shown back. Passes axe.
import { exportPKCS8, generateKeyPair } from 'jose';
import { describe, expect, it } from 'vitest';
import { expectNoAxeViolations } from './support/browser.ts';
import { signInToConsole } from './support/sign-in.ts';
import { browserSuite } from './support/suite.ts';

const suite = browserSuite();
const NOT_SAVED = 'The latest edit was not saved: correct the marked fields.';
const SAVED = 'All edits are saved as a draft. Publish to make them live.';

describe("Apple's and Microsoft's credentials in the configurator", () => {
  it('takes a .p8 key with its team and key ids, refuses a key that cannot sign, and picks the Microsoft accounts', async () => {
    const { page } = suite;
    await signInToConsole(page, suite.foyer.urls.ui, '/configurator/apps/new');
    await page.getByLabel('App name').fill('Apple and Microsoft');
    await page.getByRole('button', { name: 'Create app' }).click();
    await page.getByRole('link', { name: 'Open app settings' }).click();
    await page.getByRole('heading', { level: 2, name: 'Sign-in options' }).waitFor();

    await page.getByLabel('Apple team ID').fill('TEAM123456');
    await page.getByLabel('Apple key ID').fill('KEY1234567');
    const key = page.getByLabel('Apple private key (.p8 file)');
    await key.fill('-----BEGIN PRIVATE KEY-----\nbm90IGEga2V5\n-----END PRIVATE KEY-----');
    await page.getByText(NOT_SAVED).waitFor({ timeout: 15_000 });
    expect(await key.getAttribute('aria-invalid')).toBe('true');
    await expectNoAxeViolations(page);

    const { privateKey } = await generateKeyPair('ES256', { extractable: true });
    await key.fill(await exportPKCS8(privateKey));
    await page.getByText(SAVED).waitFor({ timeout: 15_000 });
    expect(await key.getAttribute('aria-invalid')).toBeNull();

    const accounts = page.getByLabel('Microsoft accounts that can sign in');
    expect(await accounts.inputValue()).toBe('common');
    await accounts.selectOption('organizations');
    await page.getByText(SAVED).waitFor({ timeout: 15_000 });
    await expectNoAxeViolations(page);

    // After a reload the key is only said to be set; the ids and the accounts stay.
    await page.reload();
    await page.getByLabel('Apple team ID').waitFor();
    expect(await page.getByLabel('Apple team ID').inputValue()).toBe('TEAM123456');
    expect(await page.getByLabel('Apple private key (.p8 file)').inputValue()).toBe('');
    await page.getByText('A secret is set. It is never shown; type a new one to replace it.').first().waitFor();
    expect(await page.getByLabel('Microsoft accounts that can sign in').inputValue()).toBe('organizations');
  });
});
