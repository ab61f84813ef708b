// The configurator's webhooks page in a real Chromium: the empty state, adding an endpoint from the
// keyboard (the missing-events and refused-URL messages first), revealing its signing secret, the
// delivery log of an event the loopback receiver got (verified with the standardwebhooks library),
// Resend, editing the events, and deleting after confirmation. Axe-checked, within 320 px.
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tenants } from '../server/db/schema.ts';
import { emitTenantEvent } from '../server/outbox/outbox.ts';
import { startReceiver, type Receiver } from '../tests/server/webhooks/receiver.ts';
import { expectNoAxeViolations } from './support/browser.ts';
import { signInToConsole } from './support/sign-in.ts';
import { browserSuite } from './support/suite.ts';

const suite = browserSuite();
const ui = () => suite.foyer.urls.ui;
let receiver: Receiver;
/** The worker polls every 2 s by default (FOYER_WEBHOOK_POLL_MS). */
const WAIT = { timeout: 20_000, interval: 250 };

beforeAll(async () => {
  receiver = await startReceiver();
});
afterAll(() => receiver?.close());

/** A committed change of the demo app's first workspace, with its TENANT_UPDATED event. */
async function renameWorkspace(name: string) {
  const { db, demo } = suite.foyer;
  const [tenant] = await db.select().from(tenants).where(eq(tenants.appId, demo.appId)).limit(1);
  await db.transaction(async (tx) => {
    await tx.update(tenants).set({ name }).where(eq(tenants.id, tenant!.id));
    await emitTenantEvent(tx, demo.appId, 'TENANT_UPDATED', tenant!.id);
  });
}

describe("the configurator's webhooks", () => {
  it('adds an endpoint, shows its secret and delivery log, resends, edits and deletes it, and fits 320 px', async () => {
    const page = suite.page;
    await signInToConsole(page, ui(), `/configurator/apps/${suite.foyer.demo.appId}/webhooks`);
    await page.getByRole('heading', { level: 2, name: 'Webhooks' }).waitFor();
    await page.getByText('No endpoints yet.', { exact: false }).waitFor();
    await expectNoAxeViolations(page);

    await page.getByRole('button', { name: 'Add endpoint' }).click();
    const form = page.getByRole('form', { name: 'New endpoint' });
    // No URL: the server names the field.
    await form.getByRole('button', { name: 'Save endpoint' }).click();
    await form.getByText('Enter an http or https URL on a public address that Foyer can reach.').waitFor();
    expect(await form.getByLabel('Endpoint URL').getAttribute('aria-invalid')).toBe('true');

    await form.getByLabel('Endpoint URL').fill(receiver.url);
    await form.getByLabel('Description').fill('Order system');
    for (const box of await form.getByRole('checkbox', { name: /[A-Z]_[A-Z]/ }).all()) await box.uncheck();
    await form.getByRole('button', { name: 'Save endpoint' }).click();
    await form.getByText('Choose at least one event.').waitFor();
    await expectNoAxeViolations(page);

    // From the keyboard: Space ticks the box, Enter in the URL field submits.
    await form.getByRole('checkbox', { name: /Workspace updated/ }).focus();
    await page.keyboard.press('Space');
    await form.getByLabel('Endpoint URL').focus();
    await page.keyboard.press('Enter');
    const item = page.getByRole('region', { name: /Order system/ });
    await item.waitFor();
    expect(await item.textContent()).toContain('Active');
    expect(await item.textContent()).toContain('Sends: Workspace updated');

    await item.getByRole('button', { name: 'Reveal the signing secret of Order system' }).click();
    const secret = await item.getByRole('textbox', { name: 'Signing secret', exact: true }).inputValue();
    expect(secret).toMatch(/^whsec_/);

    await renameWorkspace('Renamed for the log');
    await expect.poll(() => receiver.verifiedEvents(secret).map((event) => event.data.name), WAIT).toEqual(['Renamed for the log']);

    await item.getByRole('button', { name: 'Show delivery log' }).click();
    const table = item.getByRole('table');
    await expect
      .poll(async () => {
        await item.getByRole('button', { name: 'Refresh' }).click();
        return table.getByRole('row').nth(1).textContent();
      }, WAIT)
      .toContain('Delivered');
    const row = table.getByRole('row').nth(1);
    expect(await row.textContent()).toContain('Workspace updated');
    expect(await row.textContent()).toContain('204');
    await expectNoAxeViolations(page);

    await row.getByRole('button', { name: /^Resend Workspace updated from / }).click();
    await item.getByText('The event is queued to be sent again.').waitFor();
    await expect.poll(() => receiver.verifiedEvents(secret).length, WAIT).toBe(2);

    await item.getByRole('button', { name: 'Edit Order system' }).click();
    const edit = page.getByRole('form', { name: 'Edit Order system' });
    await edit.getByRole('checkbox', { name: /Member removed/ }).check();
    await edit.getByRole('button', { name: 'Save endpoint' }).click();
    await expect.poll(() => item.textContent()).toContain('Sends: Workspace updated, Member removed');

    await page.setViewportSize({ width: 320, height: 640 });
    await item.getByRole('button', { name: 'Hide delivery log' }).waitFor();
    expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);
    await expectNoAxeViolations(page);

    await item.getByRole('button', { name: 'Delete Order system' }).click();
    const dialog = page.getByRole('dialog', { name: 'Delete this endpoint?' });
    await dialog.getByRole('button', { name: 'Delete endpoint' }).click();
    await page.getByText('No endpoints yet.', { exact: false }).waitFor();
  });
});
