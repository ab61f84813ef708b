// Two-factor test helpers: fresh members of a workspace (each test its own, so the send limits of one
// do not reach another), the hosted login up to the second factor, and texted codes read from the outbox.
import { randomUUID } from 'node:crypto';
import { and, desc, eq } from 'drizzle-orm';
import { expect } from 'vitest';
import type { TestFoyer } from '../../../server/testing.ts';
import { outbox, tenants, tenantUsers, users } from '../../../server/db/schema.ts';
import { hashPassword } from '../../../server/auth/passwords.ts';
import { Browser } from '../oidc/browser.ts';
import {
  authorizationRequest,
  callbackUri,
  logIn,
  postJson,
  relyingParty,
  type PendingAuthorization,
  type SignInTarget,
} from '../oidc/sign-in.ts';

export const MEMBER_PASSWORD = 'Member-password-1!';
const memberPasswordHash = hashPassword(MEMBER_PASSWORD);

export interface Member {
  id: string;
  email: string;
  tenantUserId: string;
}

/** A new identity with one enabled membership in `workspace`. */
export async function newMember(foyer: TestFoyer, workspace: string, fields: Partial<typeof users.$inferInsert> = {}): Promise<Member> {
  const [tenant] = await foyer.db.select().from(tenants).where(eq(tenants.name, workspace));
  const id = randomUUID();
  const email = `member-${id.slice(0, 8)}@acme.demo.foyer.test`;
  await foyer.db
    .insert(users)
    .values({ id, appId: foyer.demo.appId, email, passwordHash: await memberPasswordHash, onboarded: true, ...fields });
  const tenantUserId = randomUUID();
  await foyer.db.insert(tenantUsers).values({ id: tenantUserId, tenantId: tenant!.id, userId: id, role: 'VIEWER', onboarded: true });
  return { id, email, tenantUserId };
}

/** A browser that started an authorization for the demo app and signed in with the password. */
export async function signInWithPassword(foyer: SignInTarget, member: Pick<Member, 'email'>, password = MEMBER_PASSWORD) {
  const browser = new Browser();
  const pending: PendingAuthorization = await authorizationRequest(await relyingParty(foyer), callbackUri(foyer));
  const landing = await browser.navigate(pending.url, (url) => url.origin === foyer.urls.ui);
  expect(landing.url).toBe(`${foyer.urls.ui}/auth/login?appId=${foyer.demo.appId}`);
  const interactionUid = landing.hops.map((hop) => /\/interaction\/([^/]+)$/.exec(new URL(hop.url).pathname)?.[1]).find(Boolean)!;
  expect(interactionUid).toBeTruthy();
  const answer = await logIn(foyer, browser, member.email, password);
  return { browser, answer, interactionUid, pending };
}

/** The newest text message to `phoneNumber`, and the code in it. */
export async function lastCode(foyer: TestFoyer, phoneNumber: string): Promise<string> {
  const [sms] = await foyer.db
    .select()
    .from(outbox)
    .where(and(eq(outbox.channel, 'sms'), eq(outbox.recipient, phoneNumber)))
    .orderBy(desc(outbox.createdAt))
    .limit(1);
  expect(sms).toBeDefined();
  const code = /\b(\d{6})\b/.exec(sms!.text)?.[1];
  expect(code).toBeDefined();
  return code!;
}

export async function textsTo(foyer: TestFoyer, phoneNumber: string): Promise<number> {
  const rows = await foyer.db
    .select()
    .from(outbox)
    .where(and(eq(outbox.channel, 'sms'), eq(outbox.recipient, phoneNumber)));
  return rows.length;
}

/** A call the hosted UI makes to the auth service with the login session cookie. */
export function call(foyer: TestFoyer, browser: Browser, path: string, body: unknown = {}) {
  return postJson(browser, `${foyer.urls.auth}${path}`, body, foyer.urls.ui);
}

/** Another code than `code` (for wrong tries). */
export const otherThan = (code: string) => String((Number(code) + 1) % 1_000_000).padStart(6, '0');
