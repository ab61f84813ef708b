// oidc-provider's storage in Foyer's database: one row per artifact (session, interaction, code,
// grant, tokens ...) in oidc_payloads, keyed by (SHA-256 of the id, model). The ids of refresh
// tokens, codes and sessions are bearer secrets, so the table holds only their hashes, and the copy
// oidc-provider keeps in the payload (jti) is sealed under the server secret (server/crypto/seal.ts):
// a copy of the table redeems nothing. Clients are not stored there: the
// `Client` model reads the apps table, so an app's registration is the only source of truth.
import { AsyncLocalStorage } from 'node:async_hooks';
import { createHash } from 'node:crypto';
import { and, eq, gt, inArray, isNull, lt, or, sql, type SQL } from 'drizzle-orm';
import { alias, type AnyPgColumn } from 'drizzle-orm/pg-core';
import { errors, type Adapter, type AdapterPayload } from 'oidc-provider';
import type { Database } from '../../db/client.ts';
import { apps, oidcPayloads, tenants, tenantUsers, users } from '../../db/schema.ts';
import { fixedWrite, flushWrites, write } from '../../db/write-batch.ts';
import { countedMembershipColumns, enabledMembership, type CountedMembershipRow } from '../memberships.ts';
import { seal, sealingKey, unseal } from '../../crypto/seal.ts';
import { openClientSecret } from '../../apps/client-secret.ts';
import { appVersion } from '../../apps/lookup.ts';

type AppRow = typeof apps.$inferSelect;

/** What of an app's settings its client metadata reads. */
const CLIENT_SETTINGS = ['clientType', 'tokenEndpointAuthMethod', 'requirePkce', 'jwks'] as const;
type ClientSettings = Pick<AppRow['settings'], (typeof CLIENT_SETTINGS)[number]>;

/** What of an app its client metadata reads. */
type ClientRow = Pick<
  AppRow,
  'id' | 'name' | 'redirectUris' | 'postLogoutRedirectUris' | 'accessTokenTtl' | 'refreshTokenTtl' | 'clientSecretSealed'
> & { settings: ClientSettings };

/**
 * An app's columns as its client metadata reads them: of its settings only those four. The rest
 * (public config, branding, sign-in options) grows with the app and is left in the database instead
 * of being decoded and parsed on every token request (bench/token-refresh.ts).
 */
const clientColumns = {
  id: apps.id,
  name: apps.name,
  redirectUris: apps.redirectUris,
  postLogoutRedirectUris: apps.postLogoutRedirectUris,
  accessTokenTtl: apps.accessTokenTtl,
  refreshTokenTtl: apps.refreshTokenTtl,
  clientSecretSealed: apps.clientSecretSealed,
  settings: sql<ClientSettings>`jsonb_strip_nulls(jsonb_build_object(${sql.join(
    CLIENT_SETTINGS.map((key) => sql`'${sql.raw(key)}', ${apps.settings}->'${sql.raw(key)}'`),
    sql`, `,
  )}))`.mapWith(apps.settings),
} satisfies Record<keyof ClientRow, unknown>;

/**
 * An app as oidc-provider client metadata. A public app (browser, native) authenticates by PKCE
 * alone; a confidential one by the method its owner chose, with its sealed secret opened here.
 */
export function clientMetadataOf(app: ClientRow, clientSecret: (sealed: string) => string): AdapterPayload {
  const settings = app.settings;
  const confidential = settings.clientType === 'confidential';
  const authMethod = confidential ? (settings.tokenEndpointAuthMethod ?? 'client_secret_basic') : 'none';
  return {
    client_id: app.id,
    client_name: app.name,
    application_type: 'web',
    token_endpoint_auth_method: authMethod,
    ...(confidential && authMethod !== 'private_key_jwt' && app.clientSecretSealed
      ? { client_secret: clientSecret(app.clientSecretSealed), client_secret_expires_at: 0 }
      : {}),
    ...(confidential && authMethod === 'private_key_jwt' && settings.jwks ? { jwks: settings.jwks } : {}),
    grant_types: ['authorization_code', 'refresh_token'],
    response_types: ['code'],
    redirect_uris: app.redirectUris,
    post_logout_redirect_uris: app.postLogoutRedirectUris,
    id_token_signed_response_alg: 'RS256',
    access_token_ttl: app.accessTokenTtl,
    refresh_token_ttl: app.refreshTokenTtl,
    require_pkce: !confidential || settings.requirePkce !== false,
  };
}

const epochSeconds = (date: Date) => Math.floor(date.getTime() / 1000);

/**
 * How long a rotated refresh token may still be used: two tabs refreshing at once, or a client
 * retrying a lost answer, each get a working successor instead of revoking the whole grant as a
 * reuse. Later than this, a rotated token coming back is treated as stolen.
 */
export const REFRESH_REUSE_GRACE_SECONDS = 10;

/** What oidc_payloads.id holds for an artifact id. */
const stored = (id: string) => createHash('sha256').update(id).digest('hex');

function notExpired(expiresAt: AnyPgColumn = oidcPayloads.expiresAt) {
  return or(isNull(expiresAt), gt(expiresAt, sql`now()`));
}

type PayloadRow = typeof oidcPayloads.$inferSelect;

/**
 * What one request read ahead: a refresh reads its app (the Client), then its token, then the
 * token's Grant, then the account (the membership) it names. The app's read fetches all four in one
 * statement (of the app only its row's version, see ClientAdapter), the token named in the request's
 * form (bench/token-refresh.bench.ts), and the later
 * reads take these copies instead of asking the database again. Request-scoped, and each copy taken
 * once, so nothing outlives the request that read it.
 */
interface ReadAhead {
  /** The refresh token the request's form presents, until the app's read has fetched it. */
  refreshToken?: string;
  /** Refresh token rows by stored id (null: read, and not there or expired). */
  refreshTokens: Map<string, RefreshTokenRow | null>;
  grants: Map<string, AdapterPayload | undefined>;
  accounts: Map<string, CountedMembershipRow>;
}

const readAheads = new AsyncLocalStorage<ReadAhead>();

/**
 * Runs one request of oidc-provider's with its own read-ahead (server/auth/oidc/provider.ts);
 * `refreshToken` is the token a refresh grant presents, read along with the app.
 */
export function withReadAhead<T>(run: () => Promise<T>, refreshToken?: string): Promise<T> {
  return readAheads.run({ refreshToken, refreshTokens: new Map(), grants: new Map(), accounts: new Map() }, run);
}

/** The membership row a refresh token's read fetched for `accountId`, once; undefined when none was read ahead. */
export function takeReadAheadAccount(accountId: string): CountedMembershipRow | undefined {
  const accounts = readAheads.getStore()?.accounts;
  const row = accounts?.get(accountId);
  accounts?.delete(accountId);
  return row;
}

const grantRows = alias(oidcPayloads, 'grant');

/** A prepared query built on its first use (the adapter is made before the database is needed). */
function lazyPrepared<T>(build: () => T): () => T {
  let prepared: T | undefined;
  return () => (prepared ??= build());
}

/** A refresh token with its live Grant and the enabled membership it names (each null when missing). */
/** What payloadOf reads of a stored row. */
type StoredPayload = Pick<PayloadRow, 'payload' | 'consumedAt'>;

type RefreshTokenRow = { token: StoredPayload & Pick<PayloadRow, 'grantId'>; grant: StoredPayload | null } & CountedMembershipRow;

/** Only what the adapter reads of the token and its Grant (their keys and lifetimes are in the read's conditions). */
const refreshTokenColumns = {
  token: { payload: oidcPayloads.payload, consumedAt: oidcPayloads.consumedAt, grantId: oidcPayloads.grantId },
  grant: { payload: grantRows.payload, consumedAt: grantRows.consumedAt },
  ...countedMembershipColumns,
};

/**
 * How a refresh token's row joins its live Grant and the enabled membership it names, and their users and tenants.
 * The Grant is reached by its key (the SHA-256 of its id, as `stored` writes it), not by grant_id:
 * every rotation leaves a row in the token's family, so a long-lived sign-in's family holds
 * thousands (tests/server/oidc/refresh-grant-read.test.ts).
 */
const grantOfToken = and(
  eq(grantRows.type, 'Grant'),
  eq(grantRows.id, sql`encode(sha256(convert_to(${oidcPayloads.grantId}, 'UTF8')), 'hex')`),
  notExpired(grantRows.expiresAt),
);
const membershipOfToken = and(eq(tenantUsers.id, sql`${oidcPayloads.payload}->>'accountId'`), enabledMembership);
const refreshTokenNamed = and(eq(oidcPayloads.type, 'RefreshToken'), eq(oidcPayloads.id, sql.placeholder('token')), notExpired());

/** An app's client metadata as built from one version of its row. */
interface KeptClient {
  version: string;
  metadata: AdapterPayload;
}

/** Apps whose metadata one instance keeps: more are read again when they come back. */
const KEPT_CLIENTS = 1000;

class ClientAdapter implements Adapter {
  /**
   * Each app's metadata as last built, by app id, with the version of its row it was built from. A
   * refresh reads only the version with its token and uses the kept metadata while the version is
   * the same, instead of reading, decoding and rebuilding the app's columns (and opening a
   * confidential app's secret) every time (bench/token-refresh.bench.ts); a changed or deleted app
   * is read again, so its change applies to the next request on every instance.
   */
  private readonly kept = new Map<string, KeptClient>();

  constructor(
    private readonly db: Database,
    private readonly secret: string,
  ) {}

  /** Built once: the query runs on every token request (bench/token-refresh.bench.ts). */
  private readonly read = lazyPrepared(() =>
    this.db
      .select({ ...clientColumns, version: appVersion })
      .from(apps)
      .where(eq(apps.id, sql.placeholder('id')))
      .limit(1)
      .prepare('foyer_oidc_client'),
  );

  /** The app's version with the refresh token a refresh grant presents, and what the token names (see ReadAhead). */
  private readonly readWithRefreshToken = lazyPrepared(() =>
    this.db
      .select({ version: appVersion, ...refreshTokenColumns })
      .from(apps)
      .leftJoin(oidcPayloads, refreshTokenNamed)
      .leftJoin(grantRows, grantOfToken)
      .leftJoin(tenantUsers, membershipOfToken)
      .leftJoin(users, eq(users.id, tenantUsers.userId))
      .leftJoin(tenants, eq(tenants.id, tenantUsers.tenantId))
      .where(eq(apps.id, sql.placeholder('id')))
      .limit(1)
      .prepare('foyer_oidc_client_refresh_token'),
  );

  async find(id: string): Promise<AdapterPayload | undefined> {
    const readAhead = readAheads.getStore();
    const refreshToken = readAhead?.refreshToken;
    if (!readAhead || refreshToken === undefined) return this.readApp(id);
    readAhead.refreshToken = undefined;
    await flushWrites(this.db);
    const [found] = await this.readWithRefreshToken().execute({ id, token: stored(refreshToken) });
    if (!found) {
      this.kept.delete(id);
      return undefined;
    }
    const { version, token, ...named } = found;
    readAhead.refreshTokens.set(stored(refreshToken), token ? { token, ...named } : null);
    const kept = this.kept.get(id);
    // Oidc-provider keeps what it is given (its Client cache hashes it): a copy of the kept metadata.
    return kept?.version === version ? { ...kept.metadata } : this.readApp(id);
  }

  /** The app's whole read, its metadata kept for the refreshes after it. */
  private async readApp(id: string): Promise<AdapterPayload | undefined> {
    const [app] = await this.read().execute({ id });
    if (!app) {
      this.kept.delete(id);
      return undefined;
    }
    const metadata = clientMetadataOf(app, (sealed) => openClientSecret(this.secret, app.id, sealed));
    if (!this.kept.has(id) && this.kept.size >= KEPT_CLIENTS) this.kept.clear();
    this.kept.set(id, { version: app.version, metadata });
    return { ...metadata };
  }

  // Apps are registered through Foyer's own admin paths, never through oidc-provider.
  async upsert(): Promise<void> {
    throw new Error('clients are read from the apps table');
  }
  async findByUid(): Promise<undefined> {
    return undefined;
  }
  async findByUserCode(): Promise<undefined> {
    return undefined;
  }
  async consume(): Promise<void> {}
  async destroy(): Promise<void> {}
  async revokeByGrantId(): Promise<void> {}
}

/** Stores an artifact, or replaces it (keeping when it was first used). Fixed: a refresh writes it every time. */
const upsertPayload = fixedWrite<{
  id: string;
  type: string;
  payload: Record<string, unknown>;
  grantId: string | null;
  userCode: string | null;
  uid: string | null;
  expiresAt: Date | null;
}>((db) =>
  db
    .insert(oidcPayloads)
    .values({
      id: sql.placeholder('id'),
      type: sql.placeholder('type'),
      payload: sql.placeholder('payload'),
      grantId: sql.placeholder('grantId'),
      userCode: sql.placeholder('userCode'),
      uid: sql.placeholder('uid'),
      expiresAt: sql.placeholder('expiresAt'),
    })
    .onConflictDoUpdate({
      target: [oidcPayloads.id, oidcPayloads.type],
      set: {
        payload: sql`excluded.payload`,
        grantId: sql`excluded.grant_id`,
        userCode: sql`excluded.user_code`,
        uid: sql`excluded.uid`,
        expiresAt: sql`excluded.expires_at`,
      },
    }),
);

/** Marks an artifact used; the first use counts, so a use within the grace window does not extend it. */
const consumePayload = fixedWrite<{ id: string; type: string }>((db) =>
  db
    .update(oidcPayloads)
    .set({ consumedAt: sql`coalesce(${oidcPayloads.consumedAt}, now())` })
    .where(and(eq(oidcPayloads.id, sql.placeholder('id')), eq(oidcPayloads.type, sql.placeholder('type')))),
);

class PayloadAdapter implements Adapter {
  constructor(
    private readonly db: Database,
    private readonly type: string,
    private readonly key: Buffer,
  ) {}

  async upsert(id: string, payload: AdapterPayload, expiresIn?: number): Promise<void> {
    const row = {
      id: stored(id),
      type: this.type,
      payload: (payload.jti === undefined ? payload : { ...payload, jti: seal(this.key, this.type, payload.jti) }) as Record<
        string,
        unknown
      >,
      // A Grant is its own family, so revoking a grant id also removes the Grant itself. (Grant ids
      // stay readable: they redeem nothing.)
      grantId: payload.grantId ?? (this.type === 'Grant' ? id : null),
      userCode: payload.userCode ?? null,
      uid: payload.uid ?? null,
      expiresAt: expiresIn ? new Date(Date.now() + expiresIn * 1000) : null,
    };
    await write(this.db, upsertPayload(this.db, row), this.rowKey(id));
  }

  /** Names the stored row of `id` for the request's write batch (server/db/write-batch.ts). */
  private rowKey(id: string): string {
    return `oidc_payloads:${this.type}:${stored(id)}`;
  }

  /** A stored row as oidc-provider's payload: its id unsealed, its first use told as `consumed`. */
  private payloadOf(row: StoredPayload, type = this.type): AdapterPayload | undefined {
    let payload = row.payload as AdapterPayload;
    if (typeof payload.jti === 'string') {
      try {
        payload = { ...payload, jti: unseal(this.key, type, payload.jti) };
      } catch {
        // Sealed under another secret (FOYER_SECRET changed): the artifact is gone for good.
        return undefined;
      }
    }
    if (!row.consumedAt) return payload;
    const withinGrace = type === 'RefreshToken' && Date.now() - row.consumedAt.getTime() < REFRESH_REUSE_GRACE_SECONDS * 1000;
    return withinGrace ? payload : { ...payload, consumed: epochSeconds(row.consumedAt) };
  }

  private async findWhere(condition: ReturnType<typeof eq>): Promise<AdapterPayload | undefined> {
    await flushWrites(this.db);
    const [row] = await this.db
      .select()
      .from(oidcPayloads)
      .where(and(eq(oidcPayloads.type, this.type), condition, notExpired()))
      .limit(1);
    return row ? this.payloadOf(row) : undefined;
  }

  /** Built once: the query runs on every refresh the app's read did not fetch ahead (bench/token-refresh.bench.ts). */
  private readonly refreshTokenRead = lazyPrepared(() =>
    this.db
      .select(refreshTokenColumns)
      .from(oidcPayloads)
      .leftJoin(grantRows, grantOfToken)
      .leftJoin(tenantUsers, membershipOfToken)
      .leftJoin(users, eq(users.id, tenantUsers.userId))
      .leftJoin(tenants, eq(tenants.id, tenantUsers.tenantId))
      .where(refreshTokenNamed)
      .limit(1)
      .prepare('foyer_oidc_refresh_token'),
  );

  /** A refresh token and, read ahead for the same request, its live Grant and the enabled membership it names. */
  private async findRefreshToken(id: string): Promise<AdapterPayload | undefined> {
    const readAhead = readAheads.getStore();
    const key = stored(id);
    let found: RefreshTokenRow | null | undefined = readAhead?.refreshTokens.get(key);
    readAhead?.refreshTokens.delete(key);
    if (found === undefined) {
      await flushWrites(this.db);
      [found] = await this.refreshTokenRead().execute({ token: key });
    }
    if (!found) return undefined;
    if (readAhead && found.token.grantId)
      readAhead.grants.set(found.token.grantId, found.grant ? this.payloadOf(found.grant, 'Grant') : undefined);
    const accountId = (found.token.payload as AdapterPayload).accountId;
    if (readAhead && typeof accountId === 'string') readAhead.accounts.set(accountId, found);
    return this.payloadOf(found.token);
  }

  find(id: string) {
    if (this.type === 'RefreshToken') return this.findRefreshToken(id);
    const grants = readAheads.getStore()?.grants;
    if (this.type === 'Grant' && grants?.has(id)) {
      const payload = grants.get(id);
      grants.delete(id);
      return Promise.resolve(payload);
    }
    return this.findWhere(eq(oidcPayloads.id, stored(id)));
  }

  findByUid(uid: string) {
    return this.findWhere(eq(oidcPayloads.uid, uid));
  }

  findByUserCode(userCode: string) {
    return this.findWhere(eq(oidcPayloads.userCode, userCode));
  }

  async consume(id: string): Promise<void> {
    if (this.type === 'AuthorizationCode') return this.consumeCode(id);
    await write(this.db, consumePayload(this.db, { id: stored(id), type: this.type }), this.rowKey(id));
  }

  /**
   * A code is good once. oidc-provider checks `consumed` on the code it read, so two redemptions
   * racing both pass that check: only the one whose write finds the code unused goes on.
   */
  private async consumeCode(id: string): Promise<void> {
    await flushWrites(this.db);
    const taken = await this.db
      .update(oidcPayloads)
      .set({ consumedAt: sql`now()` })
      .where(and(eq(oidcPayloads.id, stored(id)), eq(oidcPayloads.type, this.type), isNull(oidcPayloads.consumedAt)))
      .returning({ id: oidcPayloads.id });
    if (taken.length === 0) throw new errors.InvalidGrant('authorization code already consumed');
  }

  async destroy(id: string): Promise<void> {
    await flushWrites(this.db);
    await this.db.delete(oidcPayloads).where(and(eq(oidcPayloads.id, stored(id)), eq(oidcPayloads.type, this.type)));
  }

  async revokeByGrantId(grantId: string): Promise<void> {
    await flushWrites(this.db);
    await this.db.delete(oidcPayloads).where(and(eq(oidcPayloads.grantId, grantId), eq(oidcPayloads.type, this.type)));
  }
}

export function createAdapterFactory(db: Database, secret: string): (model: string) => Adapter {
  const key = sealingKey(secret, 'oidc artifact id v1');
  return (model) => (model === 'Client' ? new ClientAdapter(db, secret) : new PayloadAdapter(db, model, key));
}

/** Removes a whole grant family at once: the Grant and every code and token issued under it. */
export async function revokeGrantFamily(db: Database, grantId: string): Promise<void> {
  await db.delete(oidcPayloads).where(eq(oidcPayloads.grantId, grantId));
}

/**
 * Revokes the grants `grantIds` names (a sign-in session ended from the profile): each Grant with
 * every code and token under it, and the sign-on sessions that hold one of them, so the browser is
 * asked to sign in again rather than handed a fresh code.
 */
export async function revokeGrants(db: Database, grantIds: string[]): Promise<void> {
  if (grantIds.length === 0) return;
  const holdsOne = sql`exists (select 1 from jsonb_each(${oidcPayloads.payload}->'authorizations') as held where held.value->>'grantId' in (${sql.join(
    grantIds.map((id) => sql`${id}`),
    sql`, `,
  )}))`;
  await db.delete(oidcPayloads).where(or(inArray(oidcPayloads.grantId, grantIds), and(eq(oidcPayloads.type, 'Session'), holdsOne)));
}

/**
 * Revokes every grant of the memberships `accountIds` selects (oidc-provider's accounts are
 * memberships): the Grants with every code and token under them, and the sign-on sessions of those
 * accounts. For a password reset (all of an identity's memberships) and a disabled member.
 */
export async function revokeAccountGrants(db: Database, accountIds: SQL): Promise<void> {
  const ofAccounts = sql`${oidcPayloads.payload}->>'accountId' in (${accountIds})`;
  const grants = db
    .select({ id: oidcPayloads.grantId })
    .from(oidcPayloads)
    .where(and(eq(oidcPayloads.type, 'Grant'), ofAccounts));
  await db.delete(oidcPayloads).where(or(inArray(oidcPayloads.grantId, grants), and(eq(oidcPayloads.type, 'Session'), ofAccounts)));
}

/**
 * The OpenID scopes a live grant holds, when it belongs to this account and app. Access tokens are
 * JWTs nobody stores, so this is how the userinfo endpoint learns what was granted, and that the
 * grant still stands (a logout or revocation removed it).
 */
export async function liveOpenIdScopes(db: Database, grantId: string, accountId: string, clientId: string): Promise<Set<string>> {
  const [row] = await db
    .select({ payload: oidcPayloads.payload })
    .from(oidcPayloads)
    .where(and(eq(oidcPayloads.type, 'Grant'), eq(oidcPayloads.grantId, grantId), notExpired()))
    .limit(1);
  const grant = row?.payload as { accountId?: string; clientId?: string; openid?: { scope?: string } } | undefined;
  if (grant?.accountId !== accountId || grant.clientId !== clientId) return new Set();
  return new Set((grant.openid?.scope ?? '').split(' ').filter(Boolean));
}

/** Expired artifacts are never read again; this keeps the table small. */
export async function purgeExpiredPayloads(db: Database): Promise<void> {
  await db.delete(oidcPayloads).where(lt(oidcPayloads.expiresAt, sql`now()`));
}
