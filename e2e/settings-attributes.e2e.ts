// Collected attributes edited in the settings (issue 15), as a deployment declares them: in a copy of
// the flows the profile step collects the person's job title and the workspace step the workspace's
// company size (flow, form, en line; no TypeScript). The runtime is built from that copy; in Chromium
// the owner saves both, reads them back after a reload, and the server stored them where the flows say.
import { execFile } from 'node:child_process';
import path from 'node:path';
import { promisify } from 'node:util';
import { and, eq } from 'drizzle-orm';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFoyer, type TestFoyer } from '../server/testing.ts';
import { tenants, users } from '../server/db/schema.ts';
import { settingsAttributeFlows, type FlowsCopy } from '../tests/server/support/company-size-flows.ts';
import { expectNoAxeViolations, launchBrowser } from './support/browser.ts';
import { OWNER_EMAIL, signInToWorkspace } from './support/sign-in.ts';

let copy: FlowsCopy;
let foyer: TestFoyer;
let browser: Browser;
let page: Page;

beforeAll(async () => {
  copy = settingsAttributeFlows();
  const uiDist = path.join(copy.root, 'dist');
  // Built as `npm run build` builds: without the test runner's NODE_ENV=test, which would bundle React's development build.
  const { NODE_ENV: _testMode, ...env } = process.env;
  await promisify(execFile)(process.execPath, ['node_modules/vite/bin/vite.js', 'build', '--logLevel', 'error', '--outDir', uiDist], {
    env: { ...env, FOYER_FLOWS_DIR: copy.flowsDir, FOYER_FORMS_DIR: copy.formsDir, FOYER_LOCALES_DIR: copy.localesDir },
  });
  [foyer, browser] = await Promise.all([startFoyer({ uiDist, flowsDir: copy.flowsDir, formsDir: copy.formsDir }), launchBrowser()]);
  page = await (await browser.newContext()).newPage();
}, 300_000);

afterAll(async () => {
  await browser?.close();
  await foyer?.close();
  copy?.remove();
});

describe('attributes in the settings', () => {
  it("saves the person's job title in the profile and the workspace's company size in its settings", async () => {
    await signInToWorkspace(page, foyer.urls.ui);

    await page.goto(`${foyer.urls.ui}/user-management/profile`);
    const jobTitle = page.getByLabel('Job title');
    await jobTitle.waitFor();
    await expectNoAxeViolations(page);
    await jobTitle.fill('x'.repeat(51));
    await page.getByRole('button', { name: 'Save' }).click();
    await expect.poll(() => jobTitle.getAttribute('aria-invalid')).toBe('true');
    await jobTitle.fill('Head of Sales');
    await page.getByRole('button', { name: 'Save' }).click();
    await page.getByRole('status').filter({ hasText: 'Your profile has been saved.' }).waitFor();
    const [person] = await foyer.db
      .select({ attributes: users.attributes })
      .from(users)
      .where(and(eq(users.email, OWNER_EMAIL), eq(users.appId, foyer.demo.appId)));
    expect(person!.attributes).toEqual({ jobTitle: 'Head of Sales' });
    await page.reload();
    await expect.poll(() => page.getByLabel('Job title').inputValue()).toBe('Head of Sales');
    // Cleared and saved, the stored job title goes.
    await page.getByLabel('Job title').fill('');
    await page.getByRole('button', { name: 'Save' }).click();
    await page.getByRole('status').filter({ hasText: 'Your profile has been saved.' }).waitFor();
    await expect
      .poll(async () => {
        const [row] = await foyer.db
          .select({ attributes: users.attributes })
          .from(users)
          .where(and(eq(users.email, OWNER_EMAIL), eq(users.appId, foyer.demo.appId)));
        return row!.attributes;
      })
      .toEqual({});

    await page.goto(`${foyer.urls.ui}/user-management/workspace`);
    const size = page.getByLabel('Company size');
    await size.waitFor();
    await expectNoAxeViolations(page);
    await size.selectOption('51-200');
    await page.getByRole('button', { name: 'Save' }).click();
    await page.getByRole('status').filter({ hasText: 'Your workspace has been saved.' }).waitFor();
    const [workspace] = await foyer.db
      .select({ attributes: tenants.attributes })
      .from(tenants)
      .where(and(eq(tenants.name, 'Acme'), eq(tenants.appId, foyer.demo.appId)));
    expect(workspace!.attributes).toMatchObject({ companySize: '51-200' });
    await page.reload();
    // RJSF's select values are option indexes: the chosen option's text is the stored value.
    await expect.poll(() => page.getByLabel('Company size').locator('option:checked').textContent()).toBe('51-200');
    await expectNoAxeViolations(page);
  });
});
