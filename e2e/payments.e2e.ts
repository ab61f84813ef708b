// Plans and payments in Chromium against the real server and its test-mode provider: a signup link
// with a paid trial plan through onboarding and the hosted checkout (a declined card, then the
// success card) back into the app on the new plan; the plan page's cards, switches, skeletons and
// 'Manage payments'; the portal's cancel at the period's end on the payment clock; read-only plans
// for a viewer. Every screen passes axe, is used from the keyboard and fits 320 px.
import { randomUUID } from 'node:crypto';
import { eq } from 'drizzle-orm';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { tenants } from '../server/db/schema.ts';
import { DEMO_PASSWORD } from '../server/seed/demo.ts';
import { TEST_CARDS } from '../server/payments/test-provider/provider.ts';
import { expectNoAxeViolations } from './support/browser.ts';
import { browserSuite } from './support/suite.ts';
import { nextLink } from './support/mailbox.ts';
import { signInToWorkspace } from './support/sign-in.ts';

const suite = browserSuite();

const heading = (page: Page) => page.getByRole('heading', { level: 1 });

async function expectHeading(page: Page, text: string) {
  await expect.poll(() => heading(page).textContent()).toBe(text);
}

async function fits320(page: Page) {
  await page.setViewportSize({ width: 320, height: 800 });
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(320);
  await expectNoAxeViolations(page);
  await page.setViewportSize({ width: 1280, height: 800 });
}

/** The plan cards by heading, with what each shows. */
async function cards(page: Page): Promise<string[]> {
  return page.getByRole('list', { name: 'Plans' }).getByRole('listitem').allInnerTexts();
}

describe('plans and payments in the browser', () => {
  it('signs up on a paid trial plan, pays at the checkout after a declined card, and lands in the app on the plan', async () => {
    const { page, foyer } = suite;
    const email = `payer-${randomUUID().slice(0, 8)}@payments.foyer.test`;
    const password = 'Payer-pass-2026!';
    await page.goto(`${foyer.urls.ui}/auth/signup?plan=TEAM&currency=USD&recurrenceInterval=month`);
    await page.getByLabel('Email').fill(email);
    await page.getByLabel('Password', { exact: true }).fill(password);
    await page.getByRole('checkbox', { name: /I agree to the privacy policy/ }).check();
    await page.getByRole('button', { name: 'Sign up' }).click();
    await expectHeading(page, 'Check your email');

    await page.goto(await nextLink(foyer.urls.ui, email, /\/auth\/set-password\//));
    await page.getByRole('button', { name: 'Confirm' }).click();
    await expectHeading(page, 'Account confirmed');
    await page.getByRole('button', { name: 'Back to login' }).click();
    await page.waitForURL(`${foyer.urls.ui}/onboard/user`);
    await page.getByLabel('First name').fill('Petra');
    await page.getByLabel('Last name').fill('Payer');
    await page.getByRole('button', { name: 'Continue' }).click();
    await page.waitForURL(`${foyer.urls.ui}/onboard/tenant`);
    await page.getByLabel('Workspace name').fill('Paying Co');
    await page.getByRole('button', { name: 'Continue' }).click();

    // Onboarding ends at the checkout of the plan the link chose, before the app.
    await page.waitForURL(new RegExp(`^${foyer.urls.api}/payments/test/checkout/cs_test_`));
    await expectHeading(page, 'Test checkout');
    expect(await page.getByText('Test mode', { exact: true }).isVisible()).toBe(true);
    expect(await page.locator('main').textContent()).toContain('14 days, then the price above');
    await expectNoAxeViolations(page);
    await fits320(page);

    // From the keyboard: the card number, then Enter submits.
    await page.getByLabel('Card number').focus();
    await page.keyboard.type(TEST_CARDS.declined);
    await page.keyboard.press('Enter');
    await page.getByRole('alert').filter({ hasText: 'Your card was declined.' }).waitFor();
    await expectNoAxeViolations(page);
    const [declined] = await foyer.db.select().from(tenants).where(eq(tenants.name, 'Paying Co'));
    expect(declined).toMatchObject({ plan: null, pendingPlan: 'TEAM', paymentsEnabled: false });

    await page.getByLabel('Card number').focus();
    await page.keyboard.type(TEST_CARDS.succeeds);
    await page.keyboard.press('Enter');
    // Back in the app: the token was refreshed, so it carries the new plan.
    await page.waitForURL(`${foyer.urls.ui}/`);
    await expect.poll(() => page.locator('dl').textContent()).toContain('TEAM');
    expect(await page.locator('dl').textContent()).toContain('Paying Co');

    await page.getByRole('link', { name: 'Pricing plans' }).click();
    await expectHeading(page, 'Pricing plans');
    await page.getByText('Click to change your subscription').waitFor();
    await page.getByText('Your trial ends in 14 days.').waitFor();
    const shown = await cards(page);
    expect(shown.find((card) => card.includes('Team'))).toContain('Current');
    expect(shown.find((card) => card.includes('Team'))).toContain('$49');
    expect(shown.find((card) => card.includes('Freemium'))).toContain('FREE');
    expect(shown.find((card) => card.includes('Essential'))).toContain('Get Started');
    await page.getByText('VAT (SE) 25 %').waitFor();
    await expectNoAxeViolations(page);
    await fits320(page);

    // 'Manage payments' leads to the portal, which cancels at the period's end.
    await page.getByRole('button', { name: 'Manage payments' }).click();
    await page.waitForURL(new RegExp(`^${foyer.urls.api}/payments/test/portal/bps_test_`));
    await expectHeading(page, 'Test subscription portal');
    await expectNoAxeViolations(page);
    await page.getByRole('button', { name: 'Cancel at the end of the period' }).click();
    await page.getByText('Cancelled: the subscription ends when the current period ends.').waitFor();
    await expectNoAxeViolations(page);
    await page.getByRole('link', { name: 'Back to the app' }).click();
    await page.waitForURL(`${foyer.urls.ui}/tenant/plan?payments=portal`);
    // Still on the plan until the period (here the trial) ends.
    await expect.poll(async () => (await cards(page)).find((card) => card.includes('Team'))).toContain('Current');

    const [row] = await foyer.db.select().from(tenants).where(eq(tenants.name, 'Paying Co'));
    const payments = foyer.foyer.payments;
    payments.clock.advance(row!.currentPeriodEnd!.getTime() - payments.clock.now().getTime() + 1000);
    await payments.runDue();
    await page.reload();
    await expectHeading(page, 'Pricing plans');
    await expect.poll(async () => (await cards(page)).length).toBe(3);
    expect((await cards(page)).some((card) => card.includes('Current'))).toBe(false);
  });

  it('shows skeletons while loading, switches currency from the keyboard and changes to a free plan without payment', async () => {
    const { page, foyer } = suite;
    await signInToWorkspace(page, foyer.urls.ui, 'Acme');
    // Hold the plans back a moment, to see the page's placeholders.
    let release: () => void = () => {};
    const held = new Promise<void>((resolve) => (release = resolve));
    await page.route(`${foyer.urls.api}/graphql`, async (route) => {
      if (route.request().postData()?.includes('GetPaymentOptionsAnonymous')) await held;
      await route.continue();
    });
    await page.goto(`${foyer.urls.ui}/tenant/plan`);
    await expect.poll(() => page.locator('.foyer-plan--skeleton').count()).toBe(2);
    await expectNoAxeViolations(page);
    release();
    await expect.poll(async () => (await cards(page)).length).toBe(3);
    // Acme is on the free plan: no payments yet, so no 'Manage payments'.
    expect(await page.getByRole('button', { name: 'Manage payments' }).count()).toBe(0);
    expect((await cards(page)).find((card) => card.includes('Freemium'))).toContain('Current');
    expect((await cards(page)).find((card) => card.includes('Essential'))).toContain('$19');
    expect((await cards(page)).find((card) => card.includes('Essential'))).toContain('/mo');

    await page.getByRole('radio', { name: 'USD $' }).focus();
    await page.keyboard.press('ArrowRight');
    expect(await page.getByRole('radio', { name: 'EUR €' }).isChecked()).toBe(true);
    await expect.poll(async () => (await cards(page)).find((card) => card.includes('Essential'))).toContain('€17');
    await page.getByRole('radio', { name: 'Monthly' }).focus();
    await page.keyboard.press('ArrowRight');
    await expect.poll(async () => (await cards(page)).find((card) => card.includes('Essential'))).toContain('€170');
    expect((await cards(page)).find((card) => card.includes('Essential'))).toContain('/yr');
    await expectNoAxeViolations(page);

    // Tab to the free plan's button and press it: the plan changes at once, and the app follows.
    const target = page.getByRole('button', { name: 'Get Started: Freemium' });
    for (let presses = 0; presses < 10 && !(await target.evaluate((element) => element === document.activeElement)); presses++) {
      await page.keyboard.press('Tab');
    }
    await page.keyboard.press('Enter');
    await page.waitForURL(`${foyer.urls.ui}/`);
    const [acme] = await foyer.db.select().from(tenants).where(eq(tenants.name, 'Acme'));
    expect(acme).toMatchObject({ plan: 'FREEMIUM', planCurrency: 'EUR', planInterval: 'year', shouldSetupPayments: false });
  });

  it('shows a viewer the plans without a way to change them, and says who can', async () => {
    const { page, foyer } = suite;
    await page.goto(foyer.urls.ui);
    await page.getByLabel('Email').fill('viewer@globex.demo.foyer.test');
    await page.getByRole('button', { name: 'Continue' }).click();
    await page.getByLabel('Password').fill(DEMO_PASSWORD);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.waitForURL(`${foyer.urls.ui}/`);
    await page.goto(`${foyer.urls.ui}/tenant/plan`);
    await page.getByText("Only the workspace's owners can change its plan.").waitFor();
    await expect.poll(async () => (await cards(page)).length).toBe(3);
    expect(await page.getByRole('list', { name: 'Plans' }).getByRole('button').count()).toBe(0);
    expect(await page.getByRole('button', { name: 'Manage payments' }).count()).toBe(0);
    await expectNoAxeViolations(page);
    await fits320(page);
  });
});
