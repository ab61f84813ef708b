// The demo data `npm start` seeds on first start (development mode only): an app, two workspaces,
// three users and three plans, so every screen has something to show.
import { randomUUID } from 'node:crypto';
import type { ServerConfig } from '../config.ts';
import type { Database } from '../db/client.ts';
import { appOwners, apps, appVersions, tenants, tenantUsers, users } from '../db/schema.ts';
import type { PricingPlan } from '../../common/payments.ts';
import { liveConfigOf } from '../admin/config-document.ts';
import { CONSOLE_APP_ID, ensureConsoleApp } from '../apps/console.ts';
import { hashPassword } from '../auth/passwords.ts';
import type { Role } from '../../common/roles.ts';
import { HOSTED_CALLBACK_PATH } from '../apps/sign-in-start.ts';

export interface DemoUser {
  email: string;
  password: string;
  workspaces: string[];
}

export interface DemoData {
  appId: string;
  /** The configurator's app; the demo owner signs in to it too and owns the demo app there. */
  consoleAppId: string;
  urls: { auth: string; api: string; ui: string };
  users: DemoUser[];
}

export const DEMO_PASSWORD = 'Foyer-demo-2026!';

/** Where `npm run example` serves the example host app (examples/host-app), registered with the demo app. */
export const EXAMPLE_HOST_APP_ORIGIN = 'http://localhost:3330';

const memberships: { email: string; firstName: string; lastName: string; roles: [string, Role][] }[] = [
  {
    email: 'owner@demo.foyer.test',
    firstName: 'Olivia',
    lastName: 'Owner',
    roles: [
      ['Acme', 'OWNER'],
      ['Globex', 'OWNER'],
    ],
  },
  { email: 'admin@acme.demo.foyer.test', firstName: 'Adam', lastName: 'Admin', roles: [['Acme', 'ADMIN']] },
  { email: 'viewer@globex.demo.foyer.test', firstName: 'Vera', lastName: 'Viewer', roles: [['Globex', 'VIEWER']] },
];

/** Three plans, each priced monthly and yearly in dollars and euros; Team starts with a trial. */
const demoPlans: PricingPlan[] = [
  { key: 'FREEMIUM', name: 'Freemium', description: 'For trying things out', trialDays: 0, monthly: { USD: 0, EUR: 0 } },
  { key: 'ESSENTIAL', name: 'Essential', description: 'For small teams', trialDays: 0, monthly: { USD: 19, EUR: 17 } },
  { key: 'TEAM', name: 'Team', description: 'For growing companies', trialDays: 14, monthly: { USD: 49, EUR: 45 } },
].map(({ monthly, ...plan }) => ({
  ...plan,
  prices: Object.entries(monthly).flatMap(([currency, amount]) => [
    { amount, currency, recurrenceInterval: 'month' as const },
    { amount: amount * 10, currency, recurrenceInterval: 'year' as const },
  ]),
}));

export async function seedDemo(db: Database, urls: ServerConfig['urls']): Promise<DemoData> {
  const appId = randomUUID();
  const callback = `${urls.ui}${HOSTED_CALLBACK_PATH}`;
  // Live as version 1, like an app created in the configurator.
  const [app] = await db
    .insert(apps)
    .values({
      id: appId,
      name: 'Demo app',
      publishedVersion: 1,
      settings: {
        uiUrl: urls.ui,
        privacyPolicyUrl: `${urls.ui}/privacy`,
        termsOfServiceUrl: `${urls.ui}/terms`,
        onboardingFlow: 'B2B',
        tenantSelfSignup: true,
        passkeysEnabled: true,
        magicLinkEnabled: true,
        mfaEnabled: true,
        defaultRole: 'VIEWER',
        payments: { plans: demoPlans, taxes: [{ name: 'VAT', countryCode: 'SE', percentage: 25 }] },
      },
      redirectUris: [callback, `${EXAMPLE_HOST_APP_ORIGIN}/callback`],
      defaultCallbackUri: callback,
      postLogoutRedirectUris: [`${urls.ui}/auth/login`, `${EXAMPLE_HOST_APP_ORIGIN}/`],
    })
    .returning();
  await db.insert(appVersions).values({ appId, version: 1, config: { ...liveConfigOf(app!) }, note: 'Demo data', author: 'Foyer' });

  const tenantIds = new Map<string, string>();
  for (const name of ['Acme', 'Globex']) {
    const id = randomUUID();
    tenantIds.set(name, id);
    await db.insert(tenants).values({ id, appId, name, plan: 'FREEMIUM', planCurrency: 'USD', planInterval: 'month', onboarded: true });
  }

  const passwordHash = await hashPassword(DEMO_PASSWORD);
  await seedConsoleOwner(db, urls, appId, passwordHash);
  for (const person of memberships) {
    const userId = randomUUID();
    await db.insert(users).values({
      id: userId,
      appId,
      email: person.email,
      firstName: person.firstName,
      lastName: person.lastName,
      passwordHash,
      consentsToPrivacyPolicy: true,
      onboarded: true,
    });
    for (const [workspace, role] of person.roles) {
      await db.insert(tenantUsers).values({ id: randomUUID(), tenantId: tenantIds.get(workspace)!, userId, role, onboarded: true });
    }
  }

  return {
    appId,
    consoleAppId: CONSOLE_APP_ID,
    urls,
    users: memberships.map((person) => ({
      email: person.email,
      password: DEMO_PASSWORD,
      workspaces: person.roles.map(([workspace]) => workspace),
    })),
  };
}

/** The demo owner in the console app, in a console workspace that owns the demo app. */
async function seedConsoleOwner(db: Database, urls: ServerConfig['urls'], demoAppId: string, passwordHash: string) {
  await ensureConsoleApp(db, urls);
  const owner = memberships[0]!;
  const tenantId = randomUUID();
  const userId = randomUUID();
  await db.insert(tenants).values({ id: tenantId, appId: CONSOLE_APP_ID, name: 'Demo company', onboarded: true });
  await db.insert(users).values({
    id: userId,
    appId: CONSOLE_APP_ID,
    email: owner.email,
    firstName: owner.firstName,
    lastName: owner.lastName,
    passwordHash,
    consentsToPrivacyPolicy: true,
    onboarded: true,
  });
  await db.insert(tenantUsers).values({ id: randomUUID(), tenantId, userId, role: 'OWNER', onboarded: true });
  await db.insert(appOwners).values({ appId: demoAppId, tenantId });
}
