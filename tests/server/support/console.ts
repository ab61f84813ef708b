// Console (configurator) access tokens for admin API tests, issued for real: openid-client drives the
// authorization code flow against the console app foyer-console, the hosted login's session endpoints
// take the password, the workspace is chosen, and the code is exchanged at /token. Also makes extra
// console users (another owner, a viewer) in the database, to sign in the same way.
import { randomUUID } from 'node:crypto';
import { eq } from 'drizzle-orm';
import * as client from 'openid-client';
import { expect } from 'vitest';
import type { TestFoyer } from '../../../server/testing.ts';
import { CONSOLE_APP_ID, CONSOLE_CALLBACK_PATH } from '../../../server/apps/console.ts';
import { hashPassword } from '../../../server/auth/passwords.ts';
import { tenants, tenantUsers, users } from '../../../server/db/schema.ts';
import type { Role } from '../../../common/roles.ts';
import { Browser } from '../oidc/browser.ts';
import { authorizationRequest, choose, logIn, relyingParty, workspaces } from '../oidc/sign-in.ts';

export const CONSOLE_OWNER_EMAIL = 'owner@demo.foyer.test';
export const CONSOLE_WORKSPACE = 'Demo company';

/** An access token of `appId` for the member `email` of `workspace`, through the real sign-in. */
export async function accessTokenFor(
  foyer: TestFoyer,
  options: { email: string; password: string; workspace: string; appId?: string; redirectUri?: string },
): Promise<string> {
  const appId = options.appId ?? CONSOLE_APP_ID;
  const redirectUri = options.redirectUri ?? `${foyer.urls.ui}${CONSOLE_CALLBACK_PATH}`;
  const rp = await relyingParty(foyer, appId);
  const pending = await authorizationRequest(rp, redirectUri);
  const browser = new Browser();
  const toLogin = await browser.navigate(pending.url, (url) => url.origin === foyer.urls.ui);
  expect(new URL(toLogin.url).pathname).toBe('/auth/login');
  await logIn(foyer, browser, options.email, options.password);
  const chosen = (await workspaces(foyer, browser)).find((membership) => membership.tenant.name === options.workspace);
  expect(chosen, `${options.email} is a member of ${options.workspace}`).toBeDefined();
  const callback = await choose(foyer, browser, chosen!.id, redirectUri);
  const tokens = await client.authorizationCodeGrant(rp, new URL(callback), {
    pkceCodeVerifier: pending.verifier,
    expectedState: pending.state,
  });
  return tokens.access_token;
}

/** The demo owner's console token, in the console workspace that owns the demo app. */
export function consoleOwnerToken(foyer: TestFoyer): Promise<string> {
  const owner = foyer.demo.users.find((user) => user.email === CONSOLE_OWNER_EMAIL)!;
  return accessTokenFor(foyer, { email: owner.email, password: owner.password, workspace: CONSOLE_WORKSPACE });
}

export interface ConsoleUser {
  email: string;
  password: string;
  workspace: string;
  userId: string;
  tenantId: string;
}

/**
 * A new console identity with `role` in `workspace`: an existing console workspace (joined), or a
 * new one when none has that name.
 */
export async function newConsoleUser(foyer: TestFoyer, options: { workspace: string; role: Role }): Promise<ConsoleUser> {
  const [existing] = await foyer.db.select().from(tenants).where(eq(tenants.name, options.workspace));
  const tenantId = existing?.appId === CONSOLE_APP_ID ? existing.id : randomUUID();
  if (tenantId !== existing?.id) {
    await foyer.db.insert(tenants).values({ id: tenantId, appId: CONSOLE_APP_ID, name: options.workspace, onboarded: true });
  }
  const userId = randomUUID();
  const email = `console-${userId.slice(0, 8)}@example.test`;
  const password = `Console-${userId.slice(0, 8)}-1!`;
  await foyer.db.insert(users).values({
    id: userId,
    appId: CONSOLE_APP_ID,
    email,
    passwordHash: await hashPassword(password),
    consentsToPrivacyPolicy: true,
    onboarded: true,
  });
  await foyer.db.insert(tenantUsers).values({ id: randomUUID(), tenantId, userId, role: options.role, onboarded: true });
  return { email, password, workspace: options.workspace, userId, tenantId };
}

/** Calls the admin API (JSON unless `body` is raw bytes) and answers the status and parsed body. */
export async function admin<Body = Record<string, unknown>>(
  foyer: TestFoyer,
  method: string,
  path: string,
  options: { token?: string; apiKey?: string; body?: unknown; contentType?: string } = {},
): Promise<{ status: number; headers: Headers; body: Body }> {
  const headers: Record<string, string> = {};
  if (options.token) headers.authorization = `Bearer ${options.token}`;
  if (options.apiKey) headers['x-api-key'] = options.apiKey;
  let payload: BodyInit | undefined;
  if (options.body instanceof Uint8Array) {
    payload = new Uint8Array(options.body);
    headers['content-type'] = options.contentType ?? 'application/octet-stream';
  } else if (options.body !== undefined) {
    payload = JSON.stringify(options.body);
    headers['content-type'] = 'application/json';
  }
  const response = await fetch(`${foyer.urls.api}/admin${path}`, { method, headers, body: payload });
  const text = await response.text();
  return { status: response.status, headers: response.headers, body: (text ? JSON.parse(text) : undefined) as Body };
}
