// The configurator's Plans and payments section in Chromium: the demo app's plans as the document
// holds them, a plan added from the keyboard, a refused value shown at its field, a Stripe secret
// written but never shown back, the change list at publish, and the published plan offered by the
// API. Axe-checked, within 320 px.
import { eq } from 'drizzle-orm';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { apps } from '../server/db/schema.ts';
import { postGraphQL } from '../tests/server/support/graphql.ts';
import { expectNoAxeViolations } from './support/browser.ts';
import { browserSuite } from './support/suite.ts';
import { signInToConsole } from './support/sign-in.ts';

const suite = browserSuite();

async function draftSaved(page: Page): Promise<void> {
  await page.getByText('All edits are saved as a draft. Publish to make them live.').waitFor({ timeout: 15_000 });
}

describe('plans in the configurator', () => {
  it('adds a plan from the keyboard, keeps the Stripe secret sealed, and publishes the plan to the plan page', async () => {
    const { page, foyer } = suite;
    await signInToConsole(page, foyer.urls.ui, `/configurator/apps/${foyer.demo.appId}/plans`);
    await page.getByRole('heading', { level: 2, name: 'Plans and payments' }).waitFor();
    await page.getByRole('group', { name: 'Plan 3: Team' }).waitFor();
    expect(await page.getByRole('group', { name: 'Plan 3: Team' }).getByLabel('Trial days').inputValue()).toBe('14');
    expect(await page.getByLabel('Webhook endpoint').inputValue()).toBe(`${foyer.urls.api}/payments/webhook/${foyer.demo.appId}`);
    await expectNoAxeViolations(page);

    await page.getByRole('button', { name: 'Add plan' }).focus();
    await page.keyboard.press('Enter');
    const added = page.getByRole('group', { name: 'Plan 4: New plan' });
    await added.waitFor();
    await added.getByLabel('Name').fill('Enterprise');
    // The legend follows the name.
    const enterprise = page.getByRole('group', { name: 'Plan 4: Enterprise' });
    await enterprise.getByLabel('Key').fill('enterprise');
    expect(await enterprise.getByLabel('Key').inputValue()).toBe('ENTERPRISE');
    await enterprise.getByLabel('Amount').fill('99');
    // A currency the schema refuses is named at its field.
    await enterprise.getByLabel('Currency').fill('US');
    await enterprise.getByText(/must match pattern/).waitFor({ timeout: 15_000 });
    expect(await enterprise.getByLabel('Currency').getAttribute('aria-invalid')).toBe('true');
    await expectNoAxeViolations(page);
    await enterprise.getByLabel('Currency').fill('USD');
    await enterprise.getByLabel('Billing period').selectOption('year');
    await page.getByLabel('Secret key').fill('sk_test_sealedInTheDraft42');
    await draftSaved(page);

    await page.setViewportSize({ width: 320, height: 800 });
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(320);
    await expectNoAxeViolations(page);
    await page.setViewportSize({ width: 1280, height: 800 });

    await page.getByRole('button', { name: 'Publish', exact: true }).click();
    const dialog = page.getByRole('dialog', { name: 'Publish the draft' });
    await dialog.getByText('These changes go live:').waitFor();
    const changes = await dialog.getByRole('listitem').allTextContents();
    expect(changes).toEqual(expect.arrayContaining(['Plans: 1 added', 'Stripe secret key replaced']));
    await expectNoAxeViolations(page);
    await dialog.getByRole('button', { name: 'Publish' }).click();
    await dialog.waitFor({ state: 'detached' });

    const [app] = await foyer.db.select().from(apps).where(eq(apps.id, foyer.demo.appId));
    const stripe = app!.settings.payments?.stripe;
    expect(stripe?.secretKeySealed).toEqual(expect.any(String));
    expect(JSON.stringify(app!.settings)).not.toContain('sk_test_sealedInTheDraft42');
    await page.reload();
    await page.getByRole('group', { name: 'Plan 4: Enterprise' }).waitFor();
    expect(await page.getByLabel('Secret key').inputValue()).toBe('');
    await page.getByText('A secret is set. Type a new one to replace it.').waitFor();
    expect(await page.content()).not.toContain('sk_test_sealedInTheDraft42');

    const options = await postGraphQL(
      foyer.urls.api,
      { query: '{ getPaymentOptionsAnonymous { plans { key prices { amount currency recurrenceInterval } } } }' },
      { 'x-app-id': foyer.demo.appId },
    );
    expect((options.body.data!.getPaymentOptionsAnonymous as { plans: unknown[] }).plans).toContainEqual({
      key: 'ENTERPRISE',
      prices: [{ amount: 99, currency: 'USD', recurrenceInterval: 'year' }],
    });
  });
});
