// Signing in as the demo owner, the way every browser test that needs a session does it.
import type { Page } from 'playwright-core';
import { DEMO_PASSWORD } from '../../server/seed/demo.ts';

export const OWNER_EMAIL = 'owner@demo.foyer.test';

/** The hosted login from the UI's home, into `workspace`; ends on the signed-in home. */
export async function signInToWorkspace(page: Page, uiUrl: string, workspace = 'Acme'): Promise<void> {
  await page.goto(uiUrl);
  await page.getByLabel('Email').fill(OWNER_EMAIL);
  await page.getByRole('button', { name: 'Continue' }).click();
  await page.getByLabel('Password').fill(DEMO_PASSWORD);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.getByRole('radio', { name: workspace }).check();
  await page.getByRole('button', { name: 'Continue' }).click();
  await page.waitForURL(`${uiUrl}/`);
  await page.locator('dl').waitFor();
}

/** The configurator's sign-in from `path` of the console, where it comes back to. */
export async function signInToConsole(page: Page, uiUrl: string, path = '/configurator'): Promise<void> {
  await page.goto(`${uiUrl}${path}`);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.waitForURL(/\/auth\/login/);
  await page.getByLabel('Email').fill(OWNER_EMAIL);
  await page.getByRole('button', { name: 'Continue' }).click();
  await page.getByLabel('Password').fill(DEMO_PASSWORD);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.waitForURL(new RegExp(`^${uiUrl}/configurator/`));
}
