// The development mailbox in a real Chromium: it passes axe (the framed mails included), its CSP
// blocks nothing it needs, and a mail's link is a plain anchor that opens the hosted screen.
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFoyer, type TestFoyer } from '../server/testing.ts';
import { createNotifier } from '../server/notify/service.ts';
import { expectNoAxeViolations, launchBrowser } from './support/browser.ts';

let foyer: TestFoyer;
let browser: Browser;

beforeAll(async () => {
  [foyer, browser] = await Promise.all([startFoyer(), launchBrowser()]);
  const notifier = createNotifier({ config: foyer.config, db: foyer.db });
  const link = (token: string) => `${foyer.urls.ui}/auth/set-password/${token}`;
  await notifier.send({ appId: foyer.demo.appId, to: 'ada@example.com', kind: 'reset', link: link('reset-token'), expiresInSeconds: 3600 });
  await notifier.send({
    appId: foyer.demo.appId,
    to: 'bo@example.com',
    kind: 'invite',
    link: link('invite-token'),
    expiresInSeconds: 7 * 24 * 3600,
    workspace: 'Globex <b>',
  });
  await notifier.send({
    appId: foyer.demo.appId,
    to: 'ada@example.com',
    kind: 'magic-link',
    locale: 'sv',
    link: `${foyer.urls.auth}/auth/magic-link/m`,
    expiresInSeconds: 15 * 60,
  });
  await notifier.close();
});

afterAll(async () => {
  await browser?.close();
  await foyer?.close();
});

async function openMailbox(): Promise<{ page: Page; cspErrors: string[] }> {
  const page = await (await browser.newContext()).newPage();
  const cspErrors: string[] = [];
  page.on('console', (message) => {
    if (message.type() === 'error' && /Content Security Policy/i.test(message.text())) cspErrors.push(message.text());
  });
  await page.goto(`${foyer.urls.ui}/dev/mailbox`);
  // The frames load lazily; scrolled into view, each loads its mail, which axe then checks too.
  for (const frame of await page.locator('iframe').all()) {
    await frame.scrollIntoViewIfNeeded();
    await (await frame.elementHandle())!.contentFrame().then((content) => content!.waitForLoadState('load'));
  }
  return { page, cspErrors };
}

describe('the development mailbox in the browser', () => {
  it('passes axe with its rendered mails, and its CSP blocks nothing', async () => {
    const { page, cspErrors } = await openMailbox();
    await expect.poll(() => page.getByRole('heading', { level: 1 }).textContent()).toBe('Development mailbox');
    await expect.poll(() => page.getByRole('article').count()).toBe(3);
    const framed = page.frameLocator('iframe[title="Rendered message: You were invited to “Globex <b>”"]');
    await expect.poll(() => framed.getByRole('heading', { level: 1 }).textContent()).toBe('You were invited to “Globex <b>”');
    // Each mail lives in an opaque origin: nothing in it can reach the page.
    const mailFrame = page.frames().find((frame) => frame.url().includes('/dev/mailbox/messages/'))!;
    expect(await mailFrame.evaluate(() => window.origin)).toBe('null');
    await expectNoAxeViolations(page);
    expect(cspErrors).toEqual([]);
    await page.context().close();
  });

  it('filters by recipient from its form and follows a link to the hosted screen', async () => {
    const page = await (await browser.newContext()).newPage();
    await page.goto(`${foyer.urls.ui}/dev/mailbox`);
    await page.getByLabel('Recipient').fill('ada@example.com');
    await page.getByRole('button', { name: 'Show' }).click();
    await page.waitForURL(`${foyer.urls.ui}/dev/mailbox?to=ada%40example.com`);
    await expect.poll(() => page.getByRole('article').count()).toBe(2);
    await page.getByRole('link', { name: `${foyer.urls.ui}/auth/set-password/reset-token` }).click();
    await page.waitForURL(`${foyer.urls.ui}/auth/set-password/reset-token`);
    await page.context().close();
  });
});
