// Linking an enterprise connection's subject to an identity that is not the connection's alone
// (profile.ts): kept server-side as a federation state (intent 'link', the identity's id in its
// profile, single use, ten minutes) named by a random id in an httpOnly cookie, so only the browser
// that came through the connection holds it. The person signs in the old way in that browser; the
// handover into a workspace (GET /auth/chooseTenantUser) then shows the confirmation page below,
// where that same identity, and nobody else, links or declines. Any other identity signing in drops it.
import { createHash, randomBytes } from 'node:crypto';
import { and, eq, gt, sql } from 'drizzle-orm';
import type { Database } from '../../db/client.ts';
import { federationStates } from '../../db/schema.ts';
import { recordAudit } from '../../audit/service.ts';
import { escapeHtml } from '../../notify/render.ts';
import { createTranslator } from '../../notify/texts.ts';
import { renderPlainPage } from '../../notify/plain-page.ts';
import { FEDERATION_STATE_TTL_SECONDS } from '../federation/service.ts';
import { connectionById, type EnterpriseConnection } from './connections.ts';
import { joinConnectionWorkspace, linkSubject, type EnterpriseProfile } from './profile.ts';

export const ENTERPRISE_LINK_COOKIE = 'foyer_enterprise_link';

const hashId = (id: string) => createHash('sha256').update(id).digest('hex');

type PendingLinkProfile = EnterpriseProfile & { userId: string };

export interface PendingLink {
  appId: string;
  userId: string;
  profile: EnterpriseProfile;
  connection: EnterpriseConnection;
}

/** Keeps the link `profile`'s subject would make to `userId`; answers the cookie's value. */
export async function startPendingLink(
  db: Database,
  connection: EnterpriseConnection,
  userId: string,
  profile: EnterpriseProfile,
): Promise<string> {
  const id = randomBytes(32).toString('base64url');
  await db.insert(federationStates).values({
    stateHash: hashId(id),
    appId: connection.appId,
    provider: connection.kind,
    intent: 'link',
    upstream: 'app',
    // Nothing goes back to the IdP: the subject is already checked.
    nonce: '',
    codeVerifier: '',
    connectionId: connection.id,
    profile: { ...profile, userId } satisfies PendingLinkProfile,
    expiresAt: new Date(Date.now() + FEDERATION_STATE_TTL_SECONDS * 1000),
  });
  return id;
}

const live = (id: string) =>
  and(eq(federationStates.stateHash, hashId(id)), eq(federationStates.intent, 'link'), gt(federationStates.expiresAt, sql`now()`));

async function pendingLinkOf(db: Database, row: typeof federationStates.$inferSelect | undefined): Promise<PendingLink | undefined> {
  const connection = row?.connectionId ? await connectionById(db, row.connectionId) : undefined;
  if (!row || !connection) return undefined;
  const { userId, ...profile } = row.profile as unknown as PendingLinkProfile;
  return { appId: row.appId, userId, profile, connection };
}

/** The live pending link a cookie value names. */
export async function readPendingLink(db: Database, id: string | undefined): Promise<PendingLink | undefined> {
  if (!id || id.length > 100) return undefined;
  const [row] = await db.select().from(federationStates).where(live(id)).limit(1);
  return pendingLinkOf(db, row);
}

/** Takes (deletes) the live pending link a cookie value names: it is answered once. */
export async function takePendingLink(db: Database, id: string | undefined): Promise<PendingLink | undefined> {
  if (!id || id.length > 100) return undefined;
  const [row] = await db.delete(federationStates).where(live(id)).returning();
  return pendingLinkOf(db, row);
}

export async function dropPendingLink(db: Database, id: string): Promise<void> {
  await db.delete(federationStates).where(eq(federationStates.stateHash, hashId(id)));
}

/** Whether the signed-in session is the identity the link was made for, in its app. */
export const isFor = (link: PendingLink, session: { appId: string; userId: string }) =>
  link.appId === session.appId && link.userId === session.userId;

/** The confirmed link: the subject linked, the workspace joined, the person's activity told; answers the membership. */
export function confirmLink(db: Database, link: PendingLink, ip: string): Promise<string> {
  return db.transaction(async (tx) => {
    await linkSubject(tx, link.connection, link.userId, link.profile);
    await recordAudit(tx, {
      type: 'enterprise.linked',
      appId: link.appId,
      userId: link.userId,
      ip,
      detail: { connectionId: link.connection.id, tenantId: link.connection.tenantId },
    });
    return joinConnectionWorkspace(tx, link.connection, link.userId, ip);
  });
}

// No script, no style, no frames; forms go where the sign-in continues (the handover may end at the app's address).
export const LINK_PAGE_CSP = "default-src 'none'; frame-ancestors 'none'; base-uri 'none'";

/** The confirmation page (texts from server/notify/locales, in the person's language, escaped whole), or why there is none. */
export function renderLinkPage(
  locale: string | null,
  state:
    { kind: 'ask'; email: string; connection: string; workspace: string; continueWith: string } | { kind: 'gone'; continueWith: string },
): string {
  const { t, language } = createTranslator(locale);
  const continueLink = (id: string) => `/auth/chooseTenantUser/${encodeURIComponent(id)}`;
  let title: string;
  let body: string;
  if (state.kind === 'ask') {
    const values = { email: state.email, connection: state.connection, workspace: state.workspace };
    title = t('enterpriseLink.title', values);
    body = `<p>${escapeHtml(t('enterpriseLink.intro', values))}</p>
    <form method="post">
      <input type="hidden" name="continue" value="${escapeHtml(state.continueWith)}">
      <button type="submit" name="decision" value="link">${escapeHtml(t('enterpriseLink.confirm'))}</button>
      <button type="submit" name="decision" value="decline">${escapeHtml(t('enterpriseLink.decline'))}</button>
    </form>`;
  } else {
    title = t('enterpriseLink.goneTitle');
    body = `<p role="alert">${escapeHtml(t('enterpriseLink.gone'))}</p>
    <p><a href="${escapeHtml(continueLink(state.continueWith))}">${escapeHtml(t('enterpriseLink.continue'))}</a></p>`;
  }
  return renderPlainPage(language, title, body);
}
