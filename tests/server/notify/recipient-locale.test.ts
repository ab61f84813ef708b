// A mail's or text's language: the person's own locale, else their workspaces' when those agree.
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apps, tenants, tenantUsers, users } from '../../../server/db/schema.ts';
import { recipientLocale } from '../../../server/notify/recipient-locale.ts';
import { openTestDatabase } from '../../../server/testing.ts';

let handle: Awaited<ReturnType<typeof openTestDatabase>>;
const appId = randomUUID();
const otherAppId = randomUUID();

async function member(locales: string[], own: string | null = null, app = appId) {
  const userId = randomUUID();
  await handle.db.insert(users).values({ id: userId, appId: app, email: `${userId}@example.test`, locale: own });
  for (const locale of locales) {
    const tenantId = randomUUID();
    await handle.db.insert(tenants).values({ id: tenantId, appId: app, name: locale, locale });
    await handle.db.insert(tenantUsers).values({ id: randomUUID(), tenantId, userId, role: 'OWNER' });
  }
  return { id: userId, locale: own };
}

beforeAll(async () => {
  handle = await openTestDatabase();
  await handle.db.insert(apps).values([
    {
      id: appId,
      name: 'Locale app',
      settings: {},
      redirectUris: [],
      defaultCallbackUri: 'https://app.example.test/callback',
      postLogoutRedirectUris: [],
    },
    {
      id: otherAppId,
      name: 'Other app',
      settings: {},
      redirectUris: [],
      defaultCallbackUri: 'https://app.example.test/callback',
      postLogoutRedirectUris: [],
    },
  ]);
});
afterAll(() => handle?.close());

describe('recipientLocale', () => {
  it("answers the person's own locale first", async () => {
    expect(await recipientLocale(handle.db, appId, await member(['sv'], 'de'))).toBe('de');
  });

  it('else the locale their workspaces share, also over several workspaces', async () => {
    expect(await recipientLocale(handle.db, appId, await member(['sv']))).toBe('sv');
    expect(await recipientLocale(handle.db, appId, await member(['sv', 'sv']))).toBe('sv');
  });

  it('else none (English): workspaces that disagree, or none in this app', async () => {
    expect(await recipientLocale(handle.db, appId, await member(['sv', 'fr']))).toBeNull();
    const elsewhere = await member(['ja'], null, otherAppId);
    expect(await recipientLocale(handle.db, appId, elsewhere)).toBeNull();
  });
});
