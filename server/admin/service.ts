// The admin API's work: apps, drafts, publishing, versions, restoring, API keys and logos. Every
// function gets an app the caller was already found to reach (caller.ts) and records its audit event.
import { createHash, randomUUID } from 'node:crypto';
import { and, asc, desc, eq, max, sql } from 'drizzle-orm';
import type { FoyerContext } from '../context.ts';
import type { Database } from '../db/client.ts';
import { appDrafts, appOwners, apps, appVersions } from '../db/schema.ts';
import { recordAudit, type AuditType } from '../audit/service.ts';
import { confirmAttempt, releaseAttempt, reserveAttempt, type Limit } from '../audit/limits.ts';
import { withinAppCreationLimits } from './limits.ts';
import type { AppConfig } from '../../common/app-config.ts';
import { actorOf, authorOf, requirePrivilege, type AdminCaller, type AppRow, type WriteOrigin } from './caller.ts';
import {
  appColumnsOf,
  DEFAULT_ACCESS_TOKEN_TTL,
  DEFAULT_REFRESH_TOKEN_TTL,
  liveConfigOf,
  publicConfigOf,
  sealWrittenConfig,
  type StoredAppConfig,
} from './config-document.ts';
import { changesBetween, type Change } from './changes.ts';
import { AdminError, forbidden, unknownApp } from './errors.ts';
import { apiKeyCreatedAt, replaceApiKey } from '../apps/api-keys.ts';
import { rotateClientSecret } from '../apps/client-secret.ts';
import { assetUrl, checkLogo, removeUnusedAssets, storeLogo } from './logo.ts';
import { checkAppConfig, validationFailed } from './validation.ts';
import { HOSTED_CALLBACK_PATH } from '../apps/sign-in-start.ts';
import { MAX_PUBLISH_NOTE_LENGTH } from '../../common/api/limits.ts';

export interface AppSummary {
  id: string;
  name: string;
  publishedVersion: number;
  hasDraft: boolean;
  createdAt: Date;
}

export interface DraftView {
  config: AppConfig;
  baseVersion: number;
  updatedAt: Date;
  updatedBy: string;
}

export interface VersionSummary {
  version: number;
  author: string;
  note: string | null;
  createdAt: Date;
  live: boolean;
}

type DraftRow = typeof appDrafts.$inferSelect;
type VersionRow = typeof appVersions.$inferSelect;

/** Who did it and from where, for the audit record of a write. */
/** The audit event of an admin write: the acting console member (none for an API key) and detail.actor. */
export async function recordAppAudit(
  db: Database,
  origin: WriteOrigin,
  type: AuditType,
  appId: string,
  detail: Record<string, unknown> = {},
) {
  await recordAudit(db, { type, appId, ip: origin.ip, ...actingIn(origin, detail) });
}

/** Who an admin write's audit event names: the acting console member (none for an API key), and detail.actor. */
function actingIn({ caller }: WriteOrigin, detail: Record<string, unknown>) {
  return {
    userId: caller.kind === 'owner' ? caller.userId : null,
    tenantUserId: caller.kind === 'owner' ? caller.tenantUserId : null,
    detail: { actor: actorOf(caller), ...detail },
  };
}

const summaryOf = (app: AppRow, hasDraft: boolean): AppSummary => ({
  id: app.id,
  name: app.name,
  publishedVersion: app.publishedVersion,
  hasDraft,
  createdAt: app.createdAt,
});

const draftViewOf = (draft: DraftRow): DraftView => ({
  config: publicConfigOf(draft.config as unknown as StoredAppConfig),
  baseVersion: draft.baseVersion,
  updatedAt: draft.updatedAt,
  updatedBy: draft.updatedBy,
});

const versionSummaryOf = (app: AppRow, row: Omit<VersionRow, 'config' | 'appId'>): VersionSummary => ({
  version: row.version,
  author: row.author,
  note: row.note,
  createdAt: row.createdAt,
  live: row.version === app.publishedVersion,
});

async function findDraft(db: Database, appId: string): Promise<DraftRow | undefined> {
  const [draft] = await db.select().from(appDrafts).where(eq(appDrafts.appId, appId)).limit(1);
  return draft;
}

/** A JSON body must be an object; anything else is described like a schema problem at the root. */
export function bodyObject(body: unknown): Record<string, unknown> {
  if (typeof body !== 'object' || body === null || Array.isArray(body) || Buffer.isBuffer(body)) {
    throw validationFailed([{ path: '/', code: 'type', params: { type: 'object' }, message: 'must be a JSON object' }]);
  }
  return body as Record<string, unknown>;
}

export async function listApps(db: Database, caller: AdminCaller): Promise<AppSummary[]> {
  const hasDraft = sql<boolean>`exists (select 1 from ${appDrafts} where ${appDrafts.appId} = ${apps.id})`;
  if (caller.kind === 'apiKey') {
    const rows = await db.select({ app: apps, hasDraft }).from(apps).where(eq(apps.id, caller.appId));
    return rows.map((row) => summaryOf(row.app, row.hasDraft));
  }
  requirePrivilege(caller, 'read');
  const rows = await db
    .select({ app: apps, hasDraft })
    .from(appOwners)
    .innerJoin(apps, eq(apps.id, appOwners.appId))
    .where(eq(appOwners.tenantId, caller.tenantId))
    .orderBy(asc(apps.createdAt), asc(apps.id));
  return rows.map((row) => summaryOf(row.app, row.hasDraft));
}

/** What a new app starts with (docs/configurator.md "New app defaults"). */
function newAppConfig(uiUrl: string, name: unknown, redirectUris: unknown): unknown {
  return {
    name: typeof name === 'string' ? name.trim() : name,
    passwordEnabled: true,
    magicLinkEnabled: false,
    passkeysEnabled: false,
    mfaEnabled: false,
    tenantSelfSignup: true,
    onboardingFlow: 'B2B',
    defaultRole: 'VIEWER',
    redirectUris: redirectUris ?? [`${uiUrl}${HOSTED_CALLBACK_PATH}`],
    postLogoutRedirectUris: [`${uiUrl}/auth/login`],
    accessTokenTtl: DEFAULT_ACCESS_TOKEN_TTL,
    refreshTokenTtl: DEFAULT_REFRESH_TOKEN_TTL,
  };
}

/**
 * A new app owned by the caller's console workspace, live at once as version 1, with its API key
 * (answered here only). API keys cannot create apps: a key is one app's and no more.
 */
export async function createApp(
  { config, db }: FoyerContext,
  origin: WriteOrigin,
  body: unknown,
): Promise<{ app: AppSummary; apiKey: string }> {
  const { caller } = origin;
  if (caller.kind !== 'owner') throw forbidden('An API key cannot create apps; sign in to the configurator');
  requirePrivilege(caller, 'write');
  const { name, redirectUris } = bodyObject(body);
  const appId = randomUUID();
  const document = checkAppConfig(newAppConfig(config.urls.ui, name, redirectUris), appId, config.urls.api) as StoredAppConfig;
  return withinAppCreationLimits(db, origin, () =>
    db.transaction(async (tx) => {
      const [app] = await tx
        .insert(apps)
        .values({ id: appId, ...appColumnsOf(document), publishedVersion: 1 })
        .returning();
      await tx.insert(appOwners).values({ appId, tenantId: caller.tenantId });
      await tx.insert(appVersions).values({ appId, version: 1, config: { ...document }, note: 'Created', author: authorOf(caller) });
      const apiKey = await replaceApiKey(tx, appId);
      await recordAppAudit(tx, origin, 'app.created', appId, { name: app!.name });
      return { app: summaryOf(app!, false), apiKey };
    }),
  );
}

export async function describeApp(db: Database, app: AppRow) {
  const draft = await findDraft(db, app.id);
  return {
    app: summaryOf(app, Boolean(draft)),
    live: publicConfigOf(liveConfigOf(app)),
    draft: draft ? draftViewOf(draft) : null,
    apiKeyCreatedAt: await apiKeyCreatedAt(db, app.id),
    clientSecretCreatedAt: app.clientSecretCreatedAt,
  };
}

async function writeDraft(db: Database, app: AppRow, config: StoredAppConfig, updatedBy: string): Promise<DraftRow> {
  const [draft] = await db
    .insert(appDrafts)
    .values({ appId: app.id, config: { ...config }, baseVersion: app.publishedVersion, updatedBy, updatedAt: new Date() })
    .onConflictDoUpdate({ target: appDrafts.appId, set: { config: { ...config }, updatedBy, updatedAt: new Date() } })
    .returning();
  return draft!;
}

/** Validates and stores the draft; a provider secret not sent keeps the one stored. */
export async function saveDraft({ config, db }: FoyerContext, origin: WriteOrigin, app: AppRow, body: unknown): Promise<DraftView> {
  const written = checkAppConfig(bodyObject(body).config, app.id, config.urls.api);
  const existing = await findDraft(db, app.id);
  const previous = existing ? (existing.config as unknown as StoredAppConfig) : liveConfigOf(app);
  const stored = sealWrittenConfig(config, app.id, written, previous);
  const draft = await writeDraft(db, app, stored, authorOf(origin.caller));
  await removeUnusedAssets(db, config.urls.api, app.id, [previous.logo]);
  await recordAppAudit(db, origin, 'app.draft_saved', app.id, { changes: changesBetween(liveConfigOf(app), stored).length });
  return draftViewOf(draft);
}

export async function discardDraft({ config, db }: FoyerContext, origin: WriteOrigin, app: AppRow): Promise<void> {
  const [deleted] = await db.delete(appDrafts).where(eq(appDrafts.appId, app.id)).returning({ config: appDrafts.config });
  if (!deleted) return;
  await removeUnusedAssets(db, config.urls.api, app.id, [(deleted.config as unknown as StoredAppConfig).logo]);
  await recordAppAudit(db, origin, 'app.draft_discarded', app.id);
}

/** The draft's changes against what is live, and the revision they describe (publish can insist on it). */
export async function draftChanges(db: Database, app: AppRow): Promise<{ changes: Change[]; revision: string }> {
  const draft = await findDraft(db, app.id);
  const changes = draft ? changesBetween(liveConfigOf(app), draft.config as unknown as StoredAppConfig) : [];
  return { changes, revision: revisionOf(app.publishedVersion, draft) };
}

interface PublishRequest {
  note: string | null;
  /** The revision whose changes the publisher reviewed, when they say. */
  revision: string | null;
}

/**
 * Names one state of (live version, draft): the change list answers it, and a publish that names it
 * is refused once another owner has published or edited the draft since, instead of making unseen
 * changes live.
 */
function revisionOf(liveVersion: number, draft: DraftRow | undefined): string {
  const state = JSON.stringify([liveVersion, draft?.updatedAt.toISOString() ?? null, draft?.config ?? null]);
  return createHash('sha256').update(state).digest('base64url');
}

function checkPublishRequest(body: unknown): PublishRequest {
  if (body === undefined || body === null) return { note: null, revision: null };
  const { note, revision } = bodyObject(body);
  if (note !== undefined && note !== null && typeof note !== 'string')
    throw validationFailed([{ path: '/note', code: 'type', params: { type: 'string' }, message: 'must be a string' }]);
  if (typeof note === 'string' && note.length > MAX_PUBLISH_NOTE_LENGTH) {
    throw validationFailed([
      {
        path: '/note',
        code: 'maxLength',
        params: { limit: MAX_PUBLISH_NOTE_LENGTH },
        message: `must be at most ${MAX_PUBLISH_NOTE_LENGTH} characters`,
      },
    ]);
  }
  if (revision !== undefined && revision !== null && typeof revision !== 'string') {
    throw validationFailed([
      { path: '/revision', code: 'type', params: { type: 'string' }, message: 'must be the revision the changes answered' },
    ]);
  }
  return { note: typeof note === 'string' ? note.trim() || null : null, revision: revision ?? null };
}

/** Who wrote the settings an app had before its first publish through the admin API. */
const PRE_CONFIGURATOR_AUTHOR = 'Foyer';

/**
 * Makes the draft live as the next version: columns and settings, published_version and the draft's
 * removal in one transaction, the app row locked so two publishes get two numbers. An app that was
 * never published here first keeps what it had as a version, so it can be restored.
 */
export async function publishDraft({ config, db }: FoyerContext, origin: WriteOrigin, app: AppRow, body: unknown): Promise<VersionSummary> {
  const { note, revision } = checkPublishRequest(body);
  return db.transaction(async (tx) => {
    const [locked] = await tx.select().from(apps).where(eq(apps.id, app.id)).for('update');
    const draft = await findDraft(tx, app.id);
    if (!locked || !draft) throw new AdminError(409, 'NO_DRAFT', 'There is no draft to publish');
    if (revision !== null && revision !== revisionOf(locked.publishedVersion, draft)) {
      throw new AdminError(
        409,
        'CHANGED_SINCE_REVIEW',
        'The draft or the live version changed since the changes were listed; review them again',
      );
    }
    const draftConfig = draft.config as unknown as StoredAppConfig;
    // The schema may have grown stricter since the draft was saved.
    checkAppConfig(publicConfigOf(draftConfig), app.id, config.urls.api);
    const published = await publishVersion(tx, origin, locked, draftConfig, note);
    await tx.delete(appDrafts).where(eq(appDrafts.appId, app.id));
    return published;
  });
}

/**
 * Writes `stored` as the app's next version and makes it live, within the caller's transaction and
 * with the app row `locked` there. An app never published here first keeps what it had as a version.
 */
async function publishVersion(
  tx: Database,
  origin: WriteOrigin,
  locked: AppRow,
  stored: StoredAppConfig,
  note: string | null,
): Promise<VersionSummary> {
  const [latest] = await tx
    .select({ version: max(appVersions.version) })
    .from(appVersions)
    .where(eq(appVersions.appId, locked.id));
  let version = (latest?.version ?? 0) + 1;
  if (locked.publishedVersion === 0 && version === 1) {
    const before = liveConfigOf(locked);
    await tx.insert(appVersions).values({
      appId: locked.id,
      version,
      config: { ...before },
      note: 'Settings before the first publish',
      author: PRE_CONFIGURATOR_AUTHOR,
    });
    version += 1;
  }
  const [published] = await tx
    .insert(appVersions)
    .values({ appId: locked.id, version, config: { ...stored }, note, author: authorOf(origin.caller) })
    .returning();
  const [updated] = await tx
    .update(apps)
    .set({ ...appColumnsOf(stored), publishedVersion: version })
    .where(eq(apps.id, locked.id))
    .returning();
  await recordAppAudit(tx, origin, 'app.published', locked.id, { version, note });
  return versionSummaryOf(updated!, published!);
}

/**
 * An app's back end changing settings (server/management/plugin.ts): `change` maps the live document
 * (as the admin API answers it) to the new one, which passes the same checks and sealing as a saved
 * draft and goes live at once as the next version, audited as a publish. A draft the owners are
 * editing stays as it is: its change list (draftChanges) then shows what publishing it would undo.
 */
export async function publishChange(
  { config, db }: FoyerContext,
  origin: WriteOrigin,
  app: AppRow,
  change: (live: AppConfig) => unknown,
  note: string,
): Promise<{ app: AppRow; version: VersionSummary }> {
  return db.transaction(async (tx) => {
    const [locked] = await tx.select().from(apps).where(eq(apps.id, app.id)).for('update');
    if (!locked) throw unknownApp();
    const live = liveConfigOf(locked);
    const written = checkAppConfig(change(publicConfigOf(live)), app.id, config.urls.api);
    const version = await publishVersion(tx, origin, locked, sealWrittenConfig(config, app.id, written, live), note);
    const [updated] = await tx.select().from(apps).where(eq(apps.id, app.id));
    return { app: updated!, version };
  });
}

export async function listVersions(db: Database, app: AppRow): Promise<VersionSummary[]> {
  const rows = await db
    .select({ version: appVersions.version, author: appVersions.author, note: appVersions.note, createdAt: appVersions.createdAt })
    .from(appVersions)
    .where(eq(appVersions.appId, app.id))
    .orderBy(desc(appVersions.version));
  return rows.map((row) => versionSummaryOf(app, row));
}

async function findVersion(db: Database, app: AppRow, versionParam: string): Promise<VersionRow> {
  const number = /^[1-9]\d{0,8}$/.test(versionParam) ? Number(versionParam) : undefined;
  const [row] = number
    ? await db
        .select()
        .from(appVersions)
        .where(and(eq(appVersions.appId, app.id), eq(appVersions.version, number)))
        .limit(1)
    : [];
  if (!row) throw new AdminError(404, 'UNKNOWN_VERSION', 'This app has no such version');
  return row;
}

export async function getVersion(db: Database, app: AppRow, versionParam: string) {
  const row = await findVersion(db, app, versionParam);
  return { version: versionSummaryOf(app, row), config: publicConfigOf(row.config as unknown as StoredAppConfig) };
}

/** Restoring makes the version the draft; nothing goes live until it is published. */
export async function restoreVersion(
  { config, db }: FoyerContext,
  origin: WriteOrigin,
  app: AppRow,
  versionParam: string,
): Promise<DraftView> {
  const row = await findVersion(db, app, versionParam);
  const replaced = await findDraft(db, app.id);
  const draft = await writeDraft(db, app, row.config as unknown as StoredAppConfig, authorOf(origin.caller));
  await removeUnusedAssets(db, config.urls.api, app.id, [(replaced?.config as StoredAppConfig | undefined)?.logo]);
  await recordAppAudit(db, origin, 'app.version_restored', app.id, { version: row.version });
  return draftViewOf(draft);
}

export async function regenerateApiKey(db: Database, origin: WriteOrigin, app: AppRow): Promise<string> {
  const apiKey = await replaceApiKey(db, app.id);
  await recordAppAudit(db, origin, 'app.api_key_regenerated', app.id);
  return apiKey;
}

/** A new client secret for a confidential app (the old one stops working), answered once. */
export async function regenerateClientSecret({ config, db }: FoyerContext, origin: WriteOrigin, app: AppRow): Promise<string> {
  const clientSecret = await rotateClientSecret(db, config.secret, app.id);
  await recordAppAudit(db, origin, 'app.client_secret_regenerated', app.id);
  return clientSecret;
}

/** Uploads stay while anything shows them (versions may: removeUnusedAssets), so each app gets a bounded number. */
export const LOGO_UPLOADS: Limit = { type: 'app.logo_uploaded', max: 20, windowMinutes: 60, per: ['app'] };

/** Stores a checked logo and answers the URL the draft's logo field takes. */
export async function uploadLogo(
  { config, db }: FoyerContext,
  origin: WriteOrigin,
  app: AppRow,
  upload: { contentType: string | undefined; body: unknown },
): Promise<string> {
  const reservation = await reserveAttempt(db, LOGO_UPLOADS.type, { appId: app.id, ip: origin.ip, username: '' }, [LOGO_UPLOADS]);
  if (reservation === null) {
    throw new AdminError(429, 'TOO_MANY_UPLOADS', `At most ${LOGO_UPLOADS.max} logos an hour; try again later`);
  }
  let logo: ReturnType<typeof checkLogo>;
  let assetId: string;
  try {
    logo = checkLogo(upload.contentType, upload.body);
    assetId = await storeLogo(db, app.id, logo);
  } catch (error) {
    await releaseAttempt(db, reservation);
    throw error;
  }
  await confirmAttempt(db, reservation, actingIn(origin, { assetId, contentType: logo.contentType, bytes: logo.bytes.length }));
  return assetUrl(config.urls.api, app.id, assetId);
}
