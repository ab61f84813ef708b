// Shared by the password and magic-link tests: identities of their own (so tests do not disturb the
// demo users or each other), the mail Foyer sent them (read from the outbox table), and JSON calls
// from a chosen client address.
import { randomUUID } from 'node:crypto';
import { and, asc, eq } from 'drizzle-orm';
import type { TestFoyer } from '../../../server/testing.ts';
import { outbox, tenants, tenantUsers, users } from '../../../server/db/schema.ts';
import { hashPassword } from '../../../server/auth/passwords.ts';
import type { Browser } from '../oidc/browser.ts';

export const NEW_PASSWORD = 'Brand-new-secret-42!';

export interface Member {
  userId: string;
  email: string;
  password: string | null;
  memberships: Record<string, string>;
}

/** A user of the demo app with a membership in each named workspace. */
export async function createMember(
  foyer: TestFoyer,
  options: { password?: string | null; workspaces?: string[]; enabled?: boolean } = {},
): Promise<Member> {
  const email = `${randomUUID().slice(0, 8)}@members.foyer.test`;
  const password = options.password === undefined ? 'Old-password-123!' : options.password;
  const userId = randomUUID();
  await foyer.db.insert(users).values({
    id: userId,
    appId: foyer.demo.appId,
    email,
    passwordHash: password ? await hashPassword(password) : null,
    onboarded: true,
  });
  const memberships: Record<string, string> = {};
  for (const name of options.workspaces ?? ['Acme']) {
    const [tenant] = await foyer.db
      .select({ id: tenants.id })
      .from(tenants)
      .where(and(eq(tenants.appId, foyer.demo.appId), eq(tenants.name, name)));
    const id = randomUUID();
    await foyer.db.insert(tenantUsers).values({ id, tenantId: tenant!.id, userId, role: 'VIEWER', enabled: options.enabled ?? true });
    memberships[name] = id;
  }
  return { userId, email, password, memberships };
}

export interface Mail {
  kind: string;
  link: string;
}

const LINK = /https?:\/\/[^\s"'<>]+\/(?:auth\/(?:set-password|magic-link)|federated\/confirm)\/[\w-]+/;

/** The mail sent to `address`, oldest first, with the link each carries. */
export async function mailTo(foyer: TestFoyer, address: string): Promise<Mail[]> {
  const rows = await foyer.db.select().from(outbox).where(eq(outbox.recipient, address)).orderBy(asc(outbox.createdAt));
  return rows.map((row) => {
    const link = `${row.text}\n${row.html ?? ''}`.match(LINK)?.[0];
    if (!link) throw new Error(`No link in the ${row.kind} mail to ${address}`);
    return { kind: row.kind, link };
  });
}

/**
 * Waits for the deferred work behind an answer to have sent `count` mails to `address`. The queue
 * runs in order, so work queued before that mail has finished too.
 */
export async function waitForMail(foyer: TestFoyer, address: string, count = 1): Promise<Mail[]> {
  for (let attempt = 0; attempt < 400; attempt += 1) {
    const mail = await mailTo(foyer, address);
    if (mail.length >= count) return mail;
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  throw new Error(`Expected ${count} mail(s) to ${address}`);
}

export function tokenOf(link: string): string {
  return link.slice(link.lastIndexOf('/') + 1);
}

/**
 * A JSON call from the hosted UI with this browser's cookies, naming the demo app, from client
 * address `ip` (the test Foyer believes X-Forwarded-For from loopback).
 */
export function call(
  foyer: TestFoyer,
  browser: Browser,
  method: 'GET' | 'POST' | 'PUT',
  path: string,
  body?: unknown,
  options: { ip?: string; appId?: string | null } = {},
): Promise<Response> {
  const headers: Record<string, string> = { accept: 'application/json' };
  if (body !== undefined) headers['content-type'] = 'application/json';
  if (options.appId !== null) headers['x-app-id'] = options.appId ?? foyer.demo.appId;
  if (options.ip) headers['x-forwarded-for'] = options.ip;
  return browser.request(`${foyer.urls.auth}${path}`, {
    method,
    headers,
    body: body === undefined ? undefined : JSON.stringify(body),
    origin: foyer.urls.ui,
  });
}

/** What a client can observe of an answer, apart from the date and the cookie's random value. */
export async function observable(response: Response) {
  const withoutRandomness = (name: string, value: string) =>
    name === 'set-cookie' ? value.replace(/^([^=]+)=[^;]*/, '$1=…').replace(/Expires=[^;]+/i, 'Expires=…') : value;
  const headers = [...response.headers.entries()]
    .filter(([name]) => name !== 'date')
    .map(([name, value]) => `${name}: ${withoutRandomness(name, value)}`)
    .sort();
  return { status: response.status, headers, body: await response.text() };
}
