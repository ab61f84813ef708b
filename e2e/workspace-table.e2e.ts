// The users table on a workspace of 62 members (60 seeded in one insert): server-side search, sorting
// by column headers, page sizes and the page-jump input, all kept per table across a reload; next
// and previous page by cursor, from the keyboard at 320 px, with a member added meanwhile.
import { randomUUID } from 'node:crypto';
import { and, eq } from 'drizzle-orm';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tenants, tenantUsers, users } from '../server/db/schema.ts';
import { startFoyer, type TestFoyer } from '../server/testing.ts';
import { expectNoAxeViolations, launchBrowser } from './support/browser.ts';

let foyer: TestFoyer;
let browser: Browser;
let page: Page;
let globexId: string;

const SEEDED = 60;
const FIRST_NAMES = ['Alma', 'Bruno', 'Cleo', 'Dario', 'Edda', 'Fritz'];

beforeAll(async () => {
  [foyer, browser] = await Promise.all([startFoyer(), launchBrowser()]);
  const [globex] = await foyer.db
    .select({ id: tenants.id })
    .from(tenants)
    .where(and(eq(tenants.appId, foyer.demo.appId), eq(tenants.name, 'Globex')));
  globexId = globex!.id;
  const people = Array.from({ length: SEEDED }, (_, index) => ({
    id: randomUUID(),
    appId: foyer.demo.appId,
    email: `member${String(index).padStart(2, '0')}@seeded.foyer.test`,
    // Every tenth member is still an invited user without a name.
    firstName: index % 10 === 9 ? null : FIRST_NAMES[index % FIRST_NAMES.length]!,
    lastName: index % 10 === 9 ? null : `Seeded${String(index).padStart(2, '0')}`,
  }));
  await foyer.db.insert(users).values(people);
  await foyer.db.insert(tenantUsers).values(
    people.map((person, index) => ({
      id: randomUUID(),
      tenantId: globex!.id,
      userId: person.id,
      role: index % 3 === 0 ? 'MANAGER' : 'VIEWER',
      enabled: index % 7 !== 0,
      onboarded: true,
    })),
  );
  const context = await browser.newContext();
  page = await context.newPage();
});

afterAll(async () => {
  await browser?.close();
  await foyer?.close();
});

const table = () => page.getByRole('table', { name: 'Workspace users' });
const bodyRows = () => table().locator('tbody tr');
const emails = () => table().locator('tbody tr td:nth-of-type(1)').allTextContents();
const pageStatus = () => page.locator('.foyer-pager__status').textContent();
const pageJump = () => page.getByLabel('Go to page');

async function signInToGlobex() {
  const owner = foyer.demo.users[0]!;
  await page.goto(`${foyer.urls.ui}/user/list`);
  await page.waitForURL(/\/auth\/login/);
  await page.getByLabel('Email').fill(owner.email);
  await page.getByRole('button', { name: 'Continue' }).click();
  await page.getByLabel('Password').fill(owner.password);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.waitForURL(/\/auth\/choose-user/);
  await page.getByRole('radio', { name: 'Globex' }).check();
  await page.getByRole('button', { name: 'Continue' }).click();
  await page.waitForURL(`${foyer.urls.ui}/user/list`);
}

describe('the users table on a large workspace', () => {
  it('searches, sorts, pages and jumps on the server, and keeps sorting and paging after a reload', async () => {
    await signInToGlobex();
    await expect.poll(pageStatus).toBe('Page 1 of 13 (62 in all)');
    // Five rows by default, the oldest members first.
    expect(await bodyRows().count()).toBe(5);
    expect((await emails()).slice(0, 2)).toEqual(['owner@demo.foyer.test', 'viewer@globex.demo.foyer.test']);
    await expectNoAxeViolations(page);

    // Sorting by e-mail, then descending; aria-sort tells which.
    const emailHeader = table().getByRole('columnheader', { name: /Email/ });
    await emailHeader.getByRole('button').click();
    await expect.poll(() => emailHeader.getAttribute('aria-sort')).toBe('ascending');
    await expect.poll(emails).toEqual([0, 1, 2, 3, 4].map((n) => `member0${n}@seeded.foyer.test`));
    await emailHeader.getByRole('button').click();
    await expect.poll(() => emailHeader.getAttribute('aria-sort')).toBe('descending');
    await expect
      .poll(emails)
      .toEqual([
        'viewer@globex.demo.foyer.test',
        'owner@demo.foyer.test',
        'member59@seeded.foyer.test',
        'member58@seeded.foyer.test',
        'member57@seeded.foyer.test',
      ]);
    expect(await table().getByRole('columnheader', { name: /Name/ }).getAttribute('aria-sort')).toBe('none');

    // Page size 20, then a jump to page 3; out-of-range and non-integer jumps revert.
    await page.getByLabel('Rows per page').selectOption('20');
    await expect.poll(pageStatus).toBe('Page 1 of 4 (62 in all)');
    await expect.poll(() => bodyRows().count()).toBe(20);
    await pageJump().fill('3');
    await pageJump().press('Enter');
    await expect.poll(pageStatus).toBe('Page 3 of 4 (62 in all)');
    await expect.poll(emails).toContain('member19@seeded.foyer.test');
    for (const wrong of ['9', '0', '2.5', 'two']) {
      await pageJump().fill(wrong);
      await pageJump().press('Enter');
      await expect.poll(() => pageJump().inputValue()).toBe('3');
    }
    await expect.poll(pageStatus).toBe('Page 3 of 4 (62 in all)');

    // Reloaded, the same sorting, page size and page.
    await page.reload();
    await expect.poll(pageStatus).toBe('Page 3 of 4 (62 in all)');
    expect(await table().getByRole('columnheader', { name: /Email/ }).getAttribute('aria-sort')).toBe('descending');
    expect(await page.getByLabel('Rows per page').inputValue()).toBe('20');
    expect(JSON.parse((await page.evaluate(() => localStorage.getItem('NB_TABLE_users')))!)).toEqual({
      sortBy: 'EMAIL',
      sortDirection: 'DESC',
      pageIndex: 2,
      pageSize: 20,
    });

    // Search runs on the server over every word of the shown text, from the first page.
    await page.getByLabel('Search users').fill('alma deactivated');
    // Alma: indexes 0, 6, 12 … 54 with a name; deactivated: every seventh (0, 7, 14 …) → 0 and 42.
    await expect.poll(emails).toEqual(['member42@seeded.foyer.test', 'member00@seeded.foyer.test']);
    expect(await pageStatus()).toBe('Page 1 of 1 (2 in all)');
    await page.getByLabel('Search users').fill('invited user manager');
    // Unnamed members are 9, 19, 29, 39, 49, 59; managers are multiples of 3 → 39 and 9.
    await expect.poll(emails).toEqual(['member39@seeded.foyer.test', 'member09@seeded.foyer.test']);
    expect(await table().locator('tbody tr').first().textContent()).toContain('Invited user');
    await page.getByLabel('Search users').fill('nobody-matches-this');
    await table().getByText('No users match your search.').waitFor();
    await expectNoAxeViolations(page);
  });
});

describe('paging by cursor', () => {
  it('goes forward and back from the keyboard at 320 px, neither repeating nor skipping a row when a member joins meanwhile', async () => {
    const variables: Record<string, unknown>[] = [];
    page.on('request', (request) => {
      const body = request.postDataJSON() as { operationName?: string; variables?: Record<string, unknown> } | null;
      if (body?.operationName === 'ListUsers') variables.push(body.variables ?? {});
    });
    await page.setViewportSize({ width: 320, height: 800 });
    await page.evaluate(() =>
      localStorage.setItem('NB_TABLE_users', JSON.stringify({ sortBy: 'EMAIL', sortDirection: 'ASC', pageIndex: 0, pageSize: 5 })),
    );
    await page.reload();
    const seeded = (from: number) => [0, 1, 2, 3, 4].map((n) => `member${String(from + n).padStart(2, '0')}@seeded.foyer.test`);
    await expect.poll(emails).toEqual(seeded(0));
    const press = async (name: string) => {
      await page.getByRole('button', { name }).focus();
      await page.keyboard.press('Enter');
    };
    expect(await page.getByRole('button', { name: 'Previous page' }).isDisabled()).toBe(true);
    await press('Next page');
    await expect.poll(emails).toEqual(seeded(5));
    expect(await pageStatus()).toBe('Page 2 of 13 (62 in all)');
    // Someone joins whose address sorts on the first page: the next page still starts after member09.
    const joinerId = randomUUID();
    await foyer.db.insert(users).values({ id: joinerId, appId: foyer.demo.appId, email: 'member00a@seeded.foyer.test', firstName: 'Joy' });
    await foyer.db.insert(tenantUsers).values({ id: randomUUID(), tenantId: globexId, userId: joinerId, role: 'VIEWER', onboarded: true });
    await press('Next page');
    await expect.poll(emails).toEqual(seeded(10));
    await expect.poll(pageStatus).toBe('Page 3 of 13 (63 in all)');
    await expectNoAxeViolations(page);
    await press('Previous page');
    await expect.poll(emails).toEqual(seeded(5));
    expect(await pageStatus()).toBe('Page 2 of 13 (63 in all)');
    await press('Previous page');
    await expect.poll(emails).toEqual(['member00a@seeded.foyer.test', ...seeded(1).slice(0, 4)]);
    // Next and previous asked by cursor, never by offset.
    const steps = variables.filter((sent) => 'after' in sent || 'before' in sent);
    expect(steps.length).toBeGreaterThanOrEqual(4);
    expect(steps.every((sent) => !('offset' in sent))).toBe(true);
    // The page is no wider than the screen: the table scrolls inside its own region.
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(320);
  });
});
