// Legacy-mode test helpers: the demo app switched to the legacy auth mode, and the runtime's calls
// with its headers (docs/SPEC.md section 7 "Request headers on the API client").
import { and, desc, eq, sql } from 'drizzle-orm';
import { expect } from 'vitest';
import type { TestFoyer } from '../../../server/testing.ts';
import { apps, outbox } from '../../../server/db/schema.ts';

/** Switches an app (the demo app by default) to the legacy auth mode. */
export async function enableLegacyMode(foyer: TestFoyer, appId = foyer.demo.appId): Promise<void> {
  await foyer.db
    .update(apps)
    .set({ settings: sql`${apps.settings} || '{"authLegacy": true}'::jsonb` })
    .where(eq(apps.id, appId));
}

export interface LegacyHeaders {
  token?: string;
  mfaToken?: string;
  tenantUserId?: string;
  appId?: string;
}

/** The headers the runtime's legacy client sends. */
export function legacyHeaders({ token, mfaToken, tenantUserId, appId }: LegacyHeaders): Record<string, string> {
  return {
    ...(token ? { 'x-auth-token': mfaToken ? `${token}_${mfaToken}` : token } : {}),
    ...(tenantUserId ? { 'x-tenant-user-id': tenantUserId } : {}),
    ...(appId ? { 'x-app-id': appId } : {}),
  };
}

export interface Answer {
  status: number;
  body: Record<string, unknown>;
}

/** One call on the API host; `body` undefined sends none. */
export async function call(
  foyer: TestFoyer,
  method: string,
  path: string,
  headers: Record<string, string>,
  body?: unknown,
): Promise<Answer> {
  const response = await fetch(`${foyer.urls.api}${path}`, {
    method,
    headers: { ...headers, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await response.text();
  return { status: response.status, body: text ? (JSON.parse(text) as Record<string, unknown>) : {} };
}

/** POST /auth-proxy/authenticate for the demo app (or `appId`). */
export function authenticate(
  foyer: TestFoyer,
  username: string,
  password: string,
  extra: Record<string, string> = {},
  appId = foyer.demo.appId,
) {
  return call(foyer, 'POST', '/auth-proxy/authenticate', { 'x-app-id': appId, ...extra }, { username, password });
}

/** The token of a sign-in that needs no second factor. */
export async function signedInToken(foyer: TestFoyer, username: string, password: string): Promise<string> {
  const answer = await authenticate(foyer, username, password);
  expect(answer.status).toBe(200);
  expect(answer.body.mfaState).toBe('DISABLED');
  return answer.body.token as string;
}

/** The set-password token of the newest reset mail to `email` (sent after the answer, so waited for). */
export async function resetToken(foyer: TestFoyer, email: string): Promise<string> {
  for (let tries = 0; tries < 50; tries += 1) {
    const [mail] = await foyer.db
      .select()
      .from(outbox)
      .where(and(eq(outbox.recipient, email), eq(outbox.kind, 'reset')))
      .orderBy(desc(outbox.createdAt))
      .limit(1);
    const token = mail && /\/auth\/set-password\/([A-Za-z0-9_-]+)/.exec(mail.text)?.[1];
    if (token) return token;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`No reset mail to ${email}`);
}
