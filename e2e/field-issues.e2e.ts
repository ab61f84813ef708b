// A server field message that names a value reaches the user in the screens' language: a Swedish
// visitor signs up with a custom signup field longer than the server takes and reads the Swedish
// message, the number in it, at the field (src/i18n/field-issues.ts).
import { randomUUID } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { apps } from '../server/db/schema.ts';
import { MAX_CUSTOM_VALUE_LENGTH } from '../server/graphql/custom-params/service.ts';
import sv from '../src/i18n/locales/sv.json';
import { expectNoAxeViolations } from './support/browser.ts';
import { browserSuite } from './support/suite.ts';

const suite = browserSuite(async (foyer) => {
  const [app] = await foyer.db.select().from(apps).where(eq(apps.id, foyer.demo.appId));
  await foyer.db
    .update(apps)
    .set({ settings: { ...app!.settings, customSignupFields: [{ label: 'team', type: 'text', userLabel: 'Team' }] } })
    .where(eq(apps.id, foyer.demo.appId));
});

describe('server field messages in the browser', () => {
  it('shows a Swedish visitor the Swedish message for a custom field longer than the server takes', async () => {
    const page = await (await suite.browser.newContext({ locale: 'sv-SE' })).newPage();
    await page.goto(`${suite.foyer.urls.ui}/auth/signup`);
    await page.getByLabel('Team').waitFor();
    await page.getByLabel(sv.fields.email, { exact: true }).fill(`long-${randomUUID().slice(0, 8)}@issues.foyer.test`);
    await page.getByLabel(sv.fields.password, { exact: true }).fill('Founder-pass-2026!');
    await page.getByLabel('Team').fill('x'.repeat(MAX_CUSTOM_VALUE_LENGTH + 1));
    await page.getByRole('checkbox', { name: /integritetspolicyn/ }).check();
    await page.getByRole('button', { name: sv.signup.submit }).click();

    const expected = sv.fieldIssues.maxLength_other.replace('{{count}}', String(MAX_CUSTOM_VALUE_LENGTH));
    expect(expected).toBe('Högst 1000 tecken');
    const team = page.getByLabel('Team');
    await expect.poll(() => team.getAttribute('aria-invalid')).toBe('true');
    const describedBy = await team.getAttribute('aria-describedby');
    await expect.poll(() => page.locator(`[id="${describedBy}"]`).textContent()).toBe(expected);
    await expectNoAxeViolations(page);
  });
});
