// A first workspace for an app, made from the configurator: the workspace, its OWNER (an identity of
// the app found by e-mail or created without a password) and the mail that lets them in — a
// set-password link for a new identity, a notice to sign in for one that has a password — as the
// invitations of the users table do. A mail that cannot go out takes the workspace back.
import { randomUUID } from 'node:crypto';
import { and, eq, sql } from 'drizzle-orm';
import type { FoyerContext } from '../context.ts';
import type { Database } from '../db/client.ts';
import { tenants, tenantUsers, users } from '../db/schema.ts';
import { issueToken, TOKEN_TTL_SECONDS } from '../auth/tokens/service.ts';
import { isEmail, MAX_NAME_LENGTH } from '../graphql/input.ts';
import { DEFAULT_LOCALE } from '../../common/locales.ts';
import type { AppRow, WriteOrigin } from './caller.ts';
import { AdminError, type ProblemDetail } from './errors.ts';
import { bodyObject, recordAppAudit } from './service.ts';
import { validationFailed } from './validation.ts';
import { withinWorkspaceCreationLimits } from './limits.ts';
import { emitTenantEvent, emitTenantUserEvent, withdrawWebhookEvents } from '../outbox/outbox.ts';

interface WorkspaceRequest {
  name: string;
  ownerEmail: string;
  /** The names a new owner identity starts with (an existing identity keeps its own). */
  ownerFirstName?: string | null;
  ownerLastName?: string | null;
  locale?: string;
  /** Unset: a named workspace is onboarded (the configurator's case). */
  onboarded?: boolean;
  /** No mail to the owner: the app's back end hands over the link itself (management API). */
  muteNotifications?: boolean;
}

function checkRequest(body: unknown, callerEmail: string | undefined): WorkspaceRequest {
  const problems: ProblemDetail[] = [];
  const input = bodyObject(body);
  const name = typeof input.name === 'string' ? input.name.trim() : '';
  if (name === '') problems.push({ path: '/name', code: 'required', params: {}, message: 'must be a workspace name' });
  else if ([...name].length > MAX_NAME_LENGTH)
    problems.push({
      path: '/name',
      code: 'maxLength',
      params: { limit: MAX_NAME_LENGTH },
      message: `must be at most ${MAX_NAME_LENGTH} characters`,
    });
  const ownerEmail = input.ownerEmail === undefined || input.ownerEmail === null ? callerEmail : input.ownerEmail;
  if (ownerEmail === undefined)
    problems.push({ path: '/ownerEmail', code: 'required', params: {}, message: 'is required when calling with an API key' });
  else if (typeof ownerEmail !== 'string' || !isEmail(ownerEmail.trim()))
    problems.push({ path: '/ownerEmail', code: 'format', params: { format: 'email' }, message: 'must be an e-mail address' });
  if (problems.length > 0) throw validationFailed(problems);
  return { name, ownerEmail: (ownerEmail as string).trim() };
}

interface Created {
  tenantId: string;
  tenantUserId: string;
  userId: string;
  email: string;
  locale: string | null;
  newIdentity: boolean;
  hasPassword: boolean;
  token: string;
  /** The webhook events of the new workspace and owner, taken back with them. */
  webhookEventIds: (string | undefined)[];
}

async function createWorkspace(db: Database, app: AppRow, request: WorkspaceRequest): Promise<Created> {
  return db.transaction(async (tx) => {
    const findIdentity = async () => {
      const [user] = await tx
        .select({ id: users.id, email: users.email, locale: users.locale, hasPassword: sql<boolean>`${users.passwordHash} is not null` })
        .from(users)
        .where(and(eq(users.appId, app.id), sql`lower(${users.email}) = ${request.ownerEmail.toLowerCase()}`))
        .limit(1);
      return user;
    };
    let identity = await findIdentity();
    let newIdentity = false;
    if (!identity) {
      const [inserted] = await tx
        .insert(users)
        .values({
          id: randomUUID(),
          appId: app.id,
          email: request.ownerEmail,
          firstName: request.ownerFirstName || null,
          lastName: request.ownerLastName || null,
        })
        // Created a moment ago by someone else: an existing identity now.
        .onConflictDoNothing()
        .returning({ id: users.id });
      newIdentity = Boolean(inserted);
      identity = inserted ? { id: inserted.id, email: request.ownerEmail, locale: null, hasPassword: false } : await findIdentity();
      if (!identity) throw new Error('The workspace owner was neither inserted nor found');
    }
    const tenantId = randomUUID();
    await tx.insert(tenants).values({
      id: tenantId,
      appId: app.id,
      name: request.name,
      locale: request.locale ?? DEFAULT_LOCALE,
      onboarded: request.onboarded ?? request.name !== '',
    });
    const tenantUserId = randomUUID();
    // Pending until the owner accepts from the mailed link, like any invitation (server/graphql/invitations/service.ts).
    await tx
      .insert(tenantUsers)
      .values({ id: tenantUserId, tenantId, userId: identity.id, role: 'OWNER', enabled: true, onboarded: false, invitationPending: true });
    const token = await issueToken(tx, { appId: app.id, userId: identity.id, purpose: 'invite', tenantUserId });
    const webhookEventIds = [
      await emitTenantEvent(tx, app.id, 'TENANT_CREATED', tenantId),
      await emitTenantUserEvent(tx, app.id, 'TENANT_USER_CREATED', tenantUserId),
    ];
    const { email, locale, hasPassword } = identity;
    return { tenantId, tenantUserId, userId: identity.id, email, locale, hasPassword, newIdentity, token, webhookEventIds };
  });
}

async function undoWorkspace(db: Database, created: Created): Promise<void> {
  await db.transaction(async (tx) => {
    await tx.delete(tenants).where(eq(tenants.id, created.tenantId));
    if (created.newIdentity) await tx.delete(users).where(eq(users.id, created.userId));
    await withdrawWebhookEvents(tx, created.webhookEventIds);
  });
}

export async function addWorkspace(
  context: FoyerContext,
  origin: WriteOrigin,
  app: AppRow,
  body: unknown,
): Promise<{ id: string; name: string }> {
  const { caller } = origin;
  const request = checkRequest(body, caller.kind === 'owner' ? caller.email : undefined);
  return withinWorkspaceCreationLimits(context.db, origin, app, () => createAndMail(context, origin, app, request));
}

async function createAndMail(
  context: FoyerContext,
  origin: WriteOrigin,
  app: AppRow,
  request: WorkspaceRequest,
): Promise<{ id: string; name: string }> {
  const created = await createWorkspace(context.db, app, request);
  const delivery = request.muteNotifications
    ? { delivered: true as const }
    : await context.notifier.send({
        appId: app.id,
        to: created.email,
        kind: created.hasPassword ? 'invite-existing' : 'invite',
        locale: created.locale ?? request.locale ?? DEFAULT_LOCALE,
        link: `${context.config.urls.ui}/auth/set-password/${created.token}`,
        expiresInSeconds: TOKEN_TTL_SECONDS.invite,
        workspace: request.name || app.name,
      });
  if (!delivery.delivered) {
    await undoWorkspace(context.db, created);
    throw new AdminError(502, 'MAIL_NOT_SENT', 'The invitation e-mail could not be sent; the workspace was not created. Try again later');
  }
  await recordAppAudit(context.db, origin, 'app.workspace_created', app.id, {
    tenantId: created.tenantId,
    name: request.name,
    owner: { tenantUserId: created.tenantUserId, userId: created.userId, email: created.email },
    newIdentity: created.newIdentity,
    mailed: !request.muteNotifications,
  });
  return { id: created.tenantId, name: request.name };
}

/**
 * A workspace with its OWNER made by the app's back end (the management API's POST /tenant), checked
 * there; within the same creation limits as the configurator's.
 */
export function addWorkspaceFromBackEnd(
  context: FoyerContext,
  origin: WriteOrigin,
  app: AppRow,
  request: WorkspaceRequest,
): Promise<{ id: string; name: string }> {
  return withinWorkspaceCreationLimits(context.db, origin, app, () => createAndMail(context, origin, app, request));
}

/**
 * Deletes a workspace of `app` with its memberships (cascade); the identities stay, as they may
 * belong to other workspaces of the app. Answers false when the app has no such workspace.
 */
export async function deleteWorkspace(db: Database, origin: WriteOrigin, app: AppRow, tenantId: string): Promise<boolean> {
  return db.transaction(async (tx) => {
    const [deleted] = await tx
      .delete(tenants)
      .where(and(eq(tenants.id, tenantId), eq(tenants.appId, app.id)))
      .returning({ id: tenants.id, name: tenants.name });
    if (!deleted) return false;
    await recordAppAudit(tx, origin, 'app.workspace_deleted', app.id, { tenantId: deleted.id, name: deleted.name });
    return true;
  });
}
