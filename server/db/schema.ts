// Foyer's tables. Identities (users) belong to one app; a user joins workspaces (tenants) of that app
// through memberships (tenant_users), which carry the role.
import { sql } from 'drizzle-orm';
import {
  bigint,
  customType,
  boolean,
  index,
  integer,
  jsonb,
  numeric,
  pgTable,
  primaryKey,
  serial,
  text,
  timestamp,
  uniqueIndex,
  type AnyPgColumn,
} from 'drizzle-orm/pg-core';
import type { AppSettings } from './app-settings.ts';
import { ROLES } from '../../common/roles.ts';

const createdAt = () => timestamp('created_at', { withTimezone: true }).notNull().defaultNow();

export const apps = pgTable('apps', {
  id: text('id').primaryKey(),
  name: text('name').notNull(),
  /** Public config, branding and sign-in options (schema/app-config.schema.json). */
  settings: jsonb('settings').$type<AppSettings>().notNull(),
  redirectUris: jsonb('redirect_uris').$type<string[]>().notNull(),
  defaultCallbackUri: text('default_callback_uri').notNull(),
  postLogoutRedirectUris: jsonb('post_logout_redirect_uris').$type<string[]>().notNull(),
  accessTokenTtl: integer('access_token_ttl').notNull().default(3600),
  refreshTokenTtl: integer('refresh_token_ttl').notNull().default(604800),
  /** A confidential app's client secret, sealed under FOYER_SECRET (oidc-provider compares it in clear). */
  clientSecretSealed: text('client_secret_sealed'),
  clientSecretCreatedAt: timestamp('client_secret_created_at', { withTimezone: true }),
  /** The app_versions entry that is live; 0 until the first publish. */
  publishedVersion: integer('published_version').notNull().default(0),
  createdAt: createdAt(),
});

export const apiKeys = pgTable('api_keys', {
  id: text('id').primaryKey(),
  appId: text('app_id')
    .notNull()
    .references(() => apps.id, { onDelete: 'cascade' }),
  /** SHA-256 of the key; the key itself is shown once and never stored. */
  keyHash: text('key_hash').notNull().unique(),
  /** What the owner calls it (several keys per app, e.g. one per back end). */
  name: text('name').notNull().default('API key'),
  createdAt: createdAt(),
  /** Updated at most once a minute per key (server/apps/api-keys.ts). */
  lastUsedAt: timestamp('last_used_at', { withTimezone: true }),
});

export const tenants = pgTable(
  'tenants',
  {
    id: text('id').primaryKey(),
    appId: text('app_id')
      .notNull()
      .references(() => apps.id, { onDelete: 'cascade' }),
    name: text('name').notNull().default(''),
    locale: text('locale').notNull().default('en'),
    logo: text('logo'),
    plan: text('plan'),
    mfa: boolean('mfa').notNull().default(false),
    onboarded: boolean('onboarded').notNull().default(false),
    shouldSelectPlan: boolean('should_select_plan').notNull().default(false),
    shouldSetupPayments: boolean('should_setup_payments').notNull().default(false),
    paymentsEnabled: boolean('payments_enabled').notNull().default(false),
    paymentProvider: text('payment_provider').notNull().default('STRIPE'),
    /** The current plan's price offer; null for a plan chosen without one (or none). */
    planCurrency: text('plan_currency'),
    planInterval: text('plan_interval'),
    /** A paid offer the owner picked that waits for its checkout (shouldSetupPayments). */
    pendingPlan: text('pending_plan'),
    pendingCurrency: text('pending_currency'),
    pendingInterval: text('pending_interval'),
    /** The provider's subscription as its events last described it (server/payments/service.ts). */
    subscriptionId: text('subscription_id'),
    customerId: text('customer_id'),
    /** none, trialing, active, past_due or canceled. */
    subscriptionStatus: text('subscription_status').notNull().default('none'),
    trialEndsAt: timestamp('trial_ends_at', { withTimezone: true }),
    currentPeriodEnd: timestamp('current_period_end', { withTimezone: true }),
    cancelAtPeriodEnd: boolean('cancel_at_period_end').notNull().default(false),
    /** Values flows collect for the workspace (a step's `collect`), checked with their forms (server/graphql/attributes). */
    attributes: jsonb('attributes').$type<Record<string, unknown>>().notNull().default({}),
    createdAt: createdAt(),
  },
  (t) => [index('tenants_app_idx').on(t.appId)],
);

export const users = pgTable(
  'users',
  {
    id: text('id').primaryKey(),
    appId: text('app_id')
      .notNull()
      .references(() => apps.id, { onDelete: 'cascade' }),
    email: text('email').notNull(),
    firstName: text('first_name'),
    lastName: text('last_name'),
    passwordHash: text('password_hash'),
    consentsToPrivacyPolicy: boolean('consents_to_privacy_policy').notNull().default(false),
    onboarded: boolean('onboarded').notNull().default(false),
    locale: text('locale'),
    /** When a mailed link proved the user owns the address. */
    emailVerifiedAt: timestamp('email_verified_at', { withTimezone: true }),
    /** The E.164 number proven by an SMS code in two-factor setup; null until set up (or after a recovery). */
    mfaPhoneNumber: text('mfa_phone_number'),
    /** argon2 hash of the single-use recovery code shown once when two-factor setup finished. */
    mfaRecoveryCodeHash: text('mfa_recovery_code_hash'),
    /** The authenticator app's shared secret, AES-256-GCM encrypted under config.secret (server/auth/mfa/totp). */
    mfaTotpSecret: text('mfa_totp_secret'),
    /** The RFC 6238 time step of the last accepted authenticator code; a code of that step or earlier is a replay. */
    mfaTotpLastStep: integer('mfa_totp_last_step'),
    /** WebAuthn user handle (base64url of 32 random bytes) every passkey of this user carries; set at the first registration. */
    passkeyUserHandle: text('passkey_user_handle').unique(),
    /** Values flows collect for the person (a step's `collect`), checked with their forms (server/graphql/attributes). */
    attributes: jsonb('attributes').$type<Record<string, unknown>>().notNull().default({}),
    createdAt: createdAt(),
  },
  (t) => [uniqueIndex('users_app_email_idx').on(t.appId, sql`lower(${t.email})`)],
);

/**
 * The users table's sorts by status and by role, as expressions of a membership's own columns: its
 * indexes below and its queries (server/graphql/users/list.ts) share them, since an index serves only
 * the expression spelled alike. Statuses compare as the table shows them; roles by rank, OWNER first.
 */
export const memberStatusKey = (enabled: AnyPgColumn) => sql`(case when ${enabled} then 'Active' else 'Deactivated' end collate "C")`;
export const memberRoleRank = (role: AnyPgColumn) =>
  sql`(case ${role} ${sql.raw(ROLES.map((name, rank) => `when '${name}' then ${rank}`).join(' '))} else ${sql.raw(String(ROLES.length))} end)`;

export const tenantUsers = pgTable(
  'tenant_users',
  {
    id: text('id').primaryKey(),
    tenantId: text('tenant_id')
      .notNull()
      .references(() => tenants.id, { onDelete: 'cascade' }),
    userId: text('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    role: text('role').notNull(),
    enabled: boolean('enabled').notNull().default(true),
    onboarded: boolean('onboarded').notNull().default(false),
    /**
     * Invited and not yet accepted from the mailed link: the membership cannot be used, and the
     * workspace sees nothing of the identity (names, consents) until then.
     */
    invitationPending: boolean('invitation_pending').notNull().default(false),
    /** Values of the app's custom signup fields, by field label, as this membership's signup collected them. */
    customParams: jsonb('custom_params').$type<Record<string, string>>().notNull().default({}),
    /** Values flows collect for the membership (a step's `collect`), checked with their forms (server/graphql/attributes). */
    attributes: jsonb('attributes').$type<Record<string, unknown>>().notNull().default({}),
    createdAt: createdAt(),
    lastSeen: timestamp('last_seen', { withTimezone: true }),
    /**
     * What the users table shows of the member, kept by triggers (server/db/migrations/0011) so its
     * search and sorts read this table alone, on the indexes below (server/graphql/users/list.ts):
     * the shown texts a line each (name or 'Invited user', e-mail, Active/Deactivated, role), and the
     * shown name and e-mail, all in lower case.
     */
    searchText: text('search_text').notNull().default(''),
    nameKey: text('name_key').notNull().default(''),
    emailKey: text('email_key').notNull().default(''),
  },
  (t) => [
    uniqueIndex('tenant_users_member_idx').on(t.tenantId, t.userId),
    index('tenant_users_user_idx').on(t.userId),
    // One per sort of the users table and direction, each ending with its tie-breakers, so a page is
    // a range of it. A descending sort keeps its ties ascending (who joined first, then the id), so
    // the ascending index read backwards would sort each group of equal keys (every viewer, everyone
    // named alike) by the tie-breakers before a page could start.
    index('tenant_users_created_idx').on(t.tenantId, t.createdAt, t.id),
    index('tenant_users_created_desc_idx').on(t.tenantId, sql`${t.createdAt} desc`, t.id),
    index('tenant_users_name_idx').on(t.tenantId, sql`(${t.nameKey} collate "C")`, t.createdAt, t.id),
    index('tenant_users_name_desc_idx').on(t.tenantId, sql`(${t.nameKey} collate "C") desc`, t.createdAt, t.id),
    index('tenant_users_email_idx').on(t.tenantId, sql`(${t.emailKey} collate "C")`, t.createdAt, t.id),
    index('tenant_users_email_desc_idx').on(t.tenantId, sql`(${t.emailKey} collate "C") desc`, t.createdAt, t.id),
    index('tenant_users_status_idx').on(t.tenantId, memberStatusKey(t.enabled), t.createdAt, t.id),
    index('tenant_users_status_desc_idx').on(t.tenantId, sql`${memberStatusKey(t.enabled)} desc`, t.createdAt, t.id),
    index('tenant_users_role_idx').on(t.tenantId, memberRoleRank(t.role), t.createdAt, t.id),
    index('tenant_users_role_desc_idx').on(t.tenantId, sql`${memberRoleRank(t.role)} desc`, t.createdAt, t.id),
    index('tenant_users_search_idx').using('gin', t.searchText.op('gin_trgm_ops')),
  ],
);

/**
 * Provider events Foyer has applied (server/payments/service.ts), by the provider's event id: a
 * replayed event (the same id again, even correctly signed) changes nothing.
 */
export const paymentEvents = pgTable(
  'payment_events',
  {
    provider: text('provider').notNull(),
    eventId: text('event_id').notNull(),
    appId: text('app_id')
      .notNull()
      .references(() => apps.id, { onDelete: 'cascade' }),
    tenantId: text('tenant_id'),
    type: text('type').notNull(),
    receivedAt: createdAt(),
  },
  (t) => [primaryKey({ columns: [t.provider, t.eventId] })],
);

/**
 * The built-in test-mode provider's own records (server/payments/test-provider/): what a real
 * provider keeps on its side. A checkout or portal visit, opened for one workspace of one app.
 */
export const testPaymentSessions = pgTable('test_payment_sessions', {
  id: text('id').primaryKey(),
  appId: text('app_id')
    .notNull()
    .references(() => apps.id, { onDelete: 'cascade' }),
  tenantId: text('tenant_id')
    .notNull()
    .references(() => tenants.id, { onDelete: 'cascade' }),
  /** checkout or portal. */
  kind: text('kind').notNull(),
  planKey: text('plan_key'),
  currency: text('currency'),
  recurrenceInterval: text('recurrence_interval'),
  amount: numeric('amount', { precision: 12, scale: 2, mode: 'number' }),
  trialDays: integer('trial_days').notNull().default(0),
  /** open, then completed or canceled; a checkout paid with the confirmation card waits in confirming. */
  status: text('status').notNull().default('open'),
  customerEmail: text('customer_email'),
  returnUrl: text('return_url').notNull(),
  cancelUrl: text('cancel_url').notNull(),
  expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
  createdAt: createdAt(),
});

/** A test-mode subscription, as the provider sees it: its periods and trial run on the payment clock. */
export const testSubscriptions = pgTable('test_subscriptions', {
  id: text('id').primaryKey(),
  appId: text('app_id')
    .notNull()
    .references(() => apps.id, { onDelete: 'cascade' }),
  tenantId: text('tenant_id')
    .notNull()
    .references(() => tenants.id, { onDelete: 'cascade' }),
  customerId: text('customer_id').notNull(),
  planKey: text('plan_key').notNull(),
  currency: text('currency').notNull(),
  recurrenceInterval: text('recurrence_interval').notNull(),
  /** trialing, active or canceled. */
  status: text('status').notNull(),
  trialEnd: timestamp('trial_end', { withTimezone: true }),
  currentPeriodEnd: timestamp('current_period_end', { withTimezone: true }).notNull(),
  cancelAtPeriodEnd: boolean('cancel_at_period_end').notNull().default(false),
  createdAt: createdAt(),
});

/** The auth service's browser session (cookie on the auth origin), between login and handover. */
export const loginSessions = pgTable('login_sessions', {
  /** SHA-256 of the cookie value. */
  idHash: text('id_hash').primaryKey(),
  appId: text('app_id')
    .notNull()
    .references(() => apps.id, { onDelete: 'cascade' }),
  userId: text('user_id').references(() => users.id, { onDelete: 'cascade' }),
  /** The pending oidc-provider interaction this browser came to log in for. */
  interactionUid: text('interaction_uid'),
  /** Set once every required factor has passed; until then no workspace can be chosen. */
  authenticatedAt: timestamp('authenticated_at', { withTimezone: true }),
  /**
   * A workspace chosen while no authorization request was bound (a login screen opened directly, a
   * switch while signed in): the app's next authorization request finishes with it (server/auth/oidc/interactions.ts).
   */
  chosenTenantUserId: text('chosen_tenant_user_id'),
  chosenAt: timestamp('chosen_at', { withTimezone: true }),
  expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
  createdAt: createdAt(),
});

/**
 * The SMS code a login session waits for as its second factor: one live code per session, stored
 * hashed, with its expiry and the wrong tries spent on it. Setup codes also carry the number being proven.
 */
export const mfaCodes = pgTable('mfa_codes', {
  loginSessionHash: text('login_session_hash')
    .primaryKey()
    .references(() => loginSessions.idHash, { onDelete: 'cascade' }),
  userId: text('user_id')
    .notNull()
    .references(() => users.id, { onDelete: 'cascade' }),
  purpose: text('purpose').$type<'setup' | 'sign-in'>().notNull(),
  phoneNumber: text('phone_number').notNull(),
  codeHash: text('code_hash').notNull(),
  attempts: integer('attempts').notNull().default(0),
  expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
  createdAt: createdAt(),
});

/**
 * An authenticator-app setup a login session started: the new secret (encrypted like
 * users.mfa_totp_secret) until a code from the app proves it, and the wrong tries spent on it.
 */
export const mfaTotpSetups = pgTable('mfa_totp_setups', {
  loginSessionHash: text('login_session_hash')
    .primaryKey()
    .references(() => loginSessions.idHash, { onDelete: 'cascade' }),
  userId: text('user_id')
    .notNull()
    .references(() => users.id, { onDelete: 'cascade' }),
  secret: text('secret').notNull(),
  attempts: integer('attempts').notNull().default(0),
  expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
  createdAt: createdAt(),
});

/** A user's passkeys (WebAuthn credentials), found by credential id at sign-in. */
export const passkeys = pgTable(
  'passkeys',
  {
    /** The credential id, base64url. */
    id: text('id').primaryKey(),
    userId: text('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    /** COSE public key, base64url. */
    publicKey: text('public_key').notNull(),
    /** The authenticator's signature counter; a sign-in with a counter not above it is refused (unless both are 0). */
    counter: bigint('counter', { mode: 'number' }).notNull().default(0),
    transports: jsonb('transports').$type<string[]>().notNull().default([]),
    deviceType: text('device_type').$type<'singleDevice' | 'multiDevice'>().notNull(),
    backedUp: boolean('backed_up').notNull().default(false),
    name: text('name').notNull(),
    createdAt: createdAt(),
    lastUsedAt: timestamp('last_used_at', { withTimezone: true }),
  },
  (t) => [index('passkeys_user_idx').on(t.userId)],
);

/**
 * Challenges handed out for passkey ceremonies: single use (deleted when used), expiring, and bound
 * to the login session (sign-in) or the user (registration) they were issued to.
 */
export const passkeyChallenges = pgTable(
  'passkey_challenges',
  {
    challenge: text('challenge').primaryKey(),
    purpose: text('purpose').$type<'authentication' | 'registration'>().notNull(),
    loginSessionHash: text('login_session_hash').references(() => loginSessions.idHash, { onDelete: 'cascade' }),
    userId: text('user_id').references(() => users.id, { onDelete: 'cascade' }),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    createdAt: createdAt(),
  },
  (t) => [index('passkey_challenges_expiry_idx').on(t.expiresAt)],
);

/**
 * Single-use links mailed to a user: password reset, signup confirmation, invitations, magic links.
 * Only a hash of the token is stored.
 */
export const userTokens = pgTable(
  'user_tokens',
  {
    idHash: text('id_hash').primaryKey(),
    appId: text('app_id')
      .notNull()
      .references(() => apps.id, { onDelete: 'cascade' }),
    userId: text('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    purpose: text('purpose').$type<'reset' | 'signup' | 'invite' | 'magic-link'>().notNull(),
    /** The membership a signup or invitation link activates. */
    tenantUserId: text('tenant_user_id').references(() => tenantUsers.id, { onDelete: 'cascade' }),
    /** A password chosen on the signup form, set once the link proves the e-mail. */
    pendingPasswordHash: text('pending_password_hash'),
    /** A magic link works only in the browser (login session) that asked for it. */
    loginSessionHash: text('login_session_hash'),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    usedAt: timestamp('used_at', { withTimezone: true }),
    createdAt: createdAt(),
  },
  (t) => [index('user_tokens_user_idx').on(t.userId, t.purpose)],
);

/**
 * Legacy auth tokens (x-auth-token, server/auth-proxy): opaque, stored only as SHA-256 hashes, bound
 * to one app and identity. Each holds a login session of its own (never sent as a cookie) where the
 * two-factor codes wait, and dies with it: ending an identity's login sessions (a password set
 * through a link, sign out everywhere) revokes its legacy tokens too.
 */
export const legacyTokens = pgTable(
  'legacy_tokens',
  {
    idHash: text('id_hash').primaryKey(),
    loginSessionHash: text('login_session_hash')
      .notNull()
      .unique()
      .references(() => loginSessions.idHash, { onDelete: 'cascade' }),
    appId: text('app_id')
      .notNull()
      .references(() => apps.id, { onDelete: 'cascade' }),
    userId: text('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    /** Set when a second factor passed: the token then works only joined to this MFA token. */
    mfaTokenHash: text('mfa_token_hash'),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    createdAt: createdAt(),
  },
  (t) => [index('legacy_tokens_user_idx').on(t.userId)],
);

/** Messages kept instead of sent when no SMTP server is configured (the development mailbox). */
export const outbox = pgTable(
  'outbox',
  {
    id: text('id').primaryKey(),
    appId: text('app_id').references(() => apps.id, { onDelete: 'cascade' }),
    channel: text('channel').$type<'email' | 'sms'>().notNull().default('email'),
    recipient: text('recipient').notNull(),
    kind: text('kind').notNull(),
    subject: text('subject').notNull(),
    text: text('text').notNull(),
    html: text('html'),
    createdAt: createdAt(),
  },
  (t) => [index('outbox_created_idx').on(t.createdAt)],
);

/** oidc-provider's artifacts (sessions, interactions, codes, grants, refresh tokens ...). */
export const oidcPayloads = pgTable(
  'oidc_payloads',
  {
    id: text('id').notNull(),
    type: text('type').notNull(),
    payload: jsonb('payload').$type<Record<string, unknown>>().notNull(),
    grantId: text('grant_id'),
    userCode: text('user_code'),
    uid: text('uid'),
    expiresAt: timestamp('expires_at', { withTimezone: true }),
    consumedAt: timestamp('consumed_at', { withTimezone: true }),
  },
  (t) => [
    primaryKey({ columns: [t.id, t.type] }),
    index('oidc_payloads_grant_idx').on(t.grantId),
    // Only sessions and interactions have a uid, and no artifact Foyer issues has a user code: the
    // rows without one (every token a refresh stores) are left out of these indexes, which their
    // lookups by value never need (bench/token-refresh.bench.ts).
    index('oidc_payloads_uid_idx')
      .on(t.uid)
      .where(sql`${t.uid} is not null`),
    index('oidc_payloads_user_code_idx')
      .on(t.userCode)
      .where(sql`${t.userCode} is not null`),
  ],
);

/** Token signing keys, shared by every instance so tokens verify after a restart. */
/**
 * Token signing keys. The private JWK is sealed under the operator's secret (server/auth/signing-keys.ts);
 * `sealedWith` names which secret, so a rotated FOYER_SECRET still opens keys sealed under the last
 * one. `privateJwk` is the plaintext of rows from before sealing, emptied at the next start.
 */
export const signingKeys = pgTable('signing_keys', {
  kid: text('kid').primaryKey(),
  privateJwk: jsonb('private_jwk').$type<Record<string, unknown>>(),
  publicJwk: jsonb('public_jwk').$type<Record<string, unknown>>().notNull(),
  sealedJwk: text('sealed_jwk'),
  sealedWith: text('sealed_with'),
  createdAt: createdAt(),
});

export const auditEvents = pgTable(
  'audit_events',
  {
    id: serial('id').primaryKey(),
    appId: text('app_id'),
    userId: text('user_id'),
    tenantUserId: text('tenant_user_id'),
    type: text('type').notNull(),
    detail: jsonb('detail').$type<Record<string, unknown>>().notNull().default({}),
    ip: text('ip'),
    /** The User-Agent of the request that caused the event (server/http/request-device.ts), shown as the device. */
    userAgent: text('user_agent'),
    createdAt: createdAt(),
  },
  (t) => [
    index('audit_events_app_idx').on(t.appId, t.createdAt),
    // The attempt limits count one kind of event per address or per username, recent ones only
    // (server/audit/limits.ts): each count is a range of one of these, however busy the app is.
    index('audit_events_attempt_ip_idx').on(t.type, t.ip, t.appId, t.createdAt),
    index('audit_events_attempt_username_idx').on(t.type, sql`(${t.detail}->>'username')`, t.appId, t.createdAt),
  ],
);

/**
 * A browser signed in to an app: one oidc-provider grant (the refresh tokens and codes a sign-in
 * issued), recorded where the code is issued (server/auth/sessions/tracking.ts) with the device it
 * was issued to, for the profile's sessions list. Rows whose grant is gone are not sessions any more.
 */
export const signInSessions = pgTable(
  'sign_in_sessions',
  {
    /** What the profile names the session by (the grant id stays on the server). */
    id: text('id').primaryKey(),
    grantId: text('grant_id').notNull().unique(),
    appId: text('app_id')
      .notNull()
      .references(() => apps.id, { onDelete: 'cascade' }),
    userId: text('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    tenantUserId: text('tenant_user_id')
      .notNull()
      .references(() => tenantUsers.id, { onDelete: 'cascade' }),
    /** SHA-256 of the browser's login-session cookie at sign-in: it ends with the session. */
    loginSessionHash: text('login_session_hash'),
    userAgent: text('user_agent'),
    /** The client address of the latest sign-in or token refresh. */
    ip: text('ip'),
    /** The jti of the latest access token issued under the grant: the caller holding it is "this device". */
    accessTokenJti: text('access_token_jti'),
    createdAt: createdAt(),
    lastActiveAt: timestamp('last_active_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('sign_in_sessions_user_idx').on(t.userId)],
);

/**
 * Who owns an app: workspaces of the console app (the configurator's own Foyer app). Members of an
 * owning workspace manage the app, as far as their role's privileges go.
 */
export const appOwners = pgTable(
  'app_owners',
  {
    appId: text('app_id')
      .notNull()
      .references(() => apps.id, { onDelete: 'cascade' }),
    tenantId: text('tenant_id')
      .notNull()
      .references(() => tenants.id, { onDelete: 'cascade' }),
    createdAt: createdAt(),
  },
  (t) => [primaryKey({ columns: [t.appId, t.tenantId] }), index('app_owners_tenant_idx').on(t.tenantId)],
);

/** An app's unpublished edits: one draft per app, a whole config document (schema/app-config.schema.json). */
export const appDrafts = pgTable('app_drafts', {
  appId: text('app_id')
    .primaryKey()
    .references(() => apps.id, { onDelete: 'cascade' }),
  config: jsonb('config').$type<Record<string, unknown>>().notNull(),
  /** The published version the draft started from. */
  baseVersion: integer('base_version').notNull(),
  updatedBy: text('updated_by').notNull(),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
});

/** Every publish: the whole config document as it went live, numbered per app. */
export const appVersions = pgTable(
  'app_versions',
  {
    appId: text('app_id')
      .notNull()
      .references(() => apps.id, { onDelete: 'cascade' }),
    version: integer('version').notNull(),
    config: jsonb('config').$type<Record<string, unknown>>().notNull(),
    note: text('note'),
    /** Who published: an owner's e-mail, or "API key". */
    author: text('author').notNull(),
    createdAt: createdAt(),
  },
  (t) => [primaryKey({ columns: [t.appId, t.version] })],
);

const bytea = customType<{ data: Buffer; driverData: Buffer | Uint8Array }>({
  dataType: () => 'bytea',
  fromDriver: (value) => Buffer.from(value),
});

/** Uploaded branding files (logos), served from the API host at /{appId}/assets/{id}. */
export const appAssets = pgTable(
  'app_assets',
  {
    id: text('id').primaryKey(),
    appId: text('app_id')
      .notNull()
      .references(() => apps.id, { onDelete: 'cascade' }),
    contentType: text('content_type').notNull(),
    bytes: bytea('bytes').notNull(),
    createdAt: createdAt(),
  },
  (t) => [index('app_assets_app_idx').on(t.appId)],
);

/**
 * Who a person is at a social provider (its `sub`, or its user id for OAuth-only providers), linked to
 * the app's identity it signs in as. Made at a federated sign-up, or when a provider-verified e-mail
 * matched an existing identity (server/auth/federation/service.ts).
 */
export const federatedIdentities = pgTable(
  'federated_identities',
  {
    id: text('id').primaryKey(),
    appId: text('app_id')
      .notNull()
      .references(() => apps.id, { onDelete: 'cascade' }),
    userId: text('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    /** The federation type (common/app-config.ts federationTypes). */
    provider: text('provider').notNull(),
    subject: text('subject').notNull(),
    /** The e-mail the provider gave at the last sign-in. */
    email: text('email'),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex('federated_identities_subject_idx').on(t.appId, t.provider, t.subject),
    index('federated_identities_user_idx').on(t.userId),
  ],
);

/**
 * A social sign-in on its way through the provider: what the callback must find again (PKCE
 * verifier, nonce) under a hash of the `state` it sent, single use (deleted when the callback comes)
 * and short-lived. The browser carries the state in a cookie too, so a callback opened in another
 * browser is refused.
 */
export const federationStates = pgTable(
  'federation_states',
  {
    stateHash: text('state_hash').primaryKey(),
    appId: text('app_id')
      .notNull()
      .references(() => apps.id, { onDelete: 'cascade' }),
    provider: text('provider').notNull(),
    /** 'link': an enterprise link waiting for the person's confirmation (server/auth/enterprise/link.ts). */
    intent: text('intent').$type<'login' | 'signup' | 'link'>().notNull(),
    /** Whether the app's own credentials or the development provider (server/dev-idp) serve it. */
    upstream: text('upstream').$type<'app' | 'development'>().notNull(),
    nonce: text('nonce').notNull(),
    codeVerifier: text('code_verifier').notNull(),
    /** An enterprise sign-in (provider 'oidc' or 'saml'): the workspace's connection it goes through. */
    connectionId: text('connection_id').references(() => enterpriseConnections.id, { onDelete: 'cascade' }),
    /** SAML: the person the IdP's checked response named, kept between its form post and the browser's GET. */
    profile: jsonb('profile').$type<Record<string, unknown>>(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    createdAt: createdAt(),
  },
  (t) => [index('federation_states_expiry_idx').on(t.expiresAt)],
);

/**
 * A social signup whose provider did not vouch for the e-mail (server/auth/federation/service.ts):
 * nothing usable exists until the mailed link proves the address. Kept under the SHA-256 of the
 * link's token, single use, short-lived, and bound to the browser (login session) that signed up,
 * so the mailbox's owner clicking a stranger's link cannot hand the stranger an account.
 */
export const pendingFederatedSignups = pgTable(
  'pending_federated_signups',
  {
    tokenHash: text('token_hash').primaryKey(),
    appId: text('app_id')
      .notNull()
      .references(() => apps.id, { onDelete: 'cascade' }),
    provider: text('provider').notNull(),
    subject: text('subject').notNull(),
    email: text('email').notNull(),
    firstName: text('first_name'),
    lastName: text('last_name'),
    loginSessionHash: text('login_session_hash').notNull(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    createdAt: createdAt(),
  },
  (t) => [index('pending_federated_signups_expiry_idx').on(t.expiresAt)],
);

/**
 * A workspace's enterprise sign-in connection (server/auth/enterprise): an OpenID Provider or a SAML
 * 2.0 IdP that signs in the people of the e-mail domains it serves, once each domain is verified.
 */
export const enterpriseConnections = pgTable(
  'enterprise_connections',
  {
    id: text('id').primaryKey(),
    appId: text('app_id')
      .notNull()
      .references(() => apps.id, { onDelete: 'cascade' }),
    tenantId: text('tenant_id')
      .notNull()
      .references(() => tenants.id, { onDelete: 'cascade' }),
    kind: text('kind').$type<'oidc' | 'saml'>().notNull(),
    name: text('name').notNull(),
    /** The role a person signed in through it gets when joining the workspace just in time. */
    defaultRole: text('default_role').notNull().default('VIEWER'),
    oidcIssuer: text('oidc_issuer'),
    oidcClientId: text('oidc_client_id'),
    /** Sealed under FOYER_SECRET, bound to the connection (server/auth/enterprise/connections.ts). */
    oidcClientSecretSealed: text('oidc_client_secret_sealed'),
    samlIdpEntityId: text('saml_idp_entity_id'),
    samlSsoUrl: text('saml_sso_url'),
    /** The IdP's signing certificates (PEM), one or more. */
    samlIdpCerts: jsonb('saml_idp_certs').$type<string[]>(),
    createdAt: createdAt(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('enterprise_connections_tenant_idx').on(t.tenantId)],
);

/**
 * An e-mail domain a connection serves, and the proof of it (a DNS TXT record or a mail to a role
 * mailbox) once checked. At most one claim per domain and app is verified: two workspaces cannot
 * both route a domain's logins, and two proofs at once cannot both win.
 */
export const enterpriseDomains = pgTable(
  'enterprise_domains',
  {
    connectionId: text('connection_id')
      .notNull()
      .references(() => enterpriseConnections.id, { onDelete: 'cascade' }),
    appId: text('app_id')
      .notNull()
      .references(() => apps.id, { onDelete: 'cascade' }),
    domain: text('domain').notNull(),
    /** The value of the TXT record `foyer-verification=<token>` the owner publishes at the domain. */
    token: text('token').notNull(),
    verifiedAt: timestamp('verified_at', { withTimezone: true }),
    /** The proof by mail (server/auth/enterprise/domains.ts): the SHA-256 of the link's token, single use. */
    mailTokenHash: text('mail_token_hash'),
    mailSentTo: text('mail_sent_to'),
    mailExpiresAt: timestamp('mail_expires_at', { withTimezone: true }),
    createdAt: createdAt(),
  },
  (t) => [
    primaryKey({ columns: [t.connectionId, t.domain] }),
    index('enterprise_domains_domain_idx').on(t.appId, t.domain),
    uniqueIndex('enterprise_domains_mail_token_idx').on(t.mailTokenHash),
    uniqueIndex('enterprise_domains_verified_idx')
      .on(t.appId, t.domain)
      .where(sql`${t.verifiedAt} is not null`),
  ],
);

/**
 * SAML: the AuthnRequest ids Foyer sent (the InResponseTo a response must name) and the assertion ids
 * it accepted (never accepted twice), each until it expires; in the database so every instance agrees.
 */
export const samlMessageIds = pgTable(
  'saml_message_ids',
  {
    kind: text('kind').$type<'request' | 'assertion'>().notNull(),
    connectionId: text('connection_id')
      .notNull()
      .references(() => enterpriseConnections.id, { onDelete: 'cascade' }),
    id: text('id').notNull(),
    /** What the request id was kept with (node-saml's cache value: the time it was issued). */
    value: text('value').notNull().default(''),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
  },
  (t) => [primaryKey({ columns: [t.kind, t.connectionId, t.id] }), index('saml_message_ids_expiry_idx').on(t.expiresAt)],
);

/**
 * Where an app wants to hear about changes (server/webhooks/): a URL, the event types it takes, and
 * the Standard Webhooks signing secret (whsec_…), sealed under FOYER_SECRET because the configurator
 * shows it again.
 */
export const webhookEndpoints = pgTable(
  'webhook_endpoints',
  {
    id: text('id').primaryKey(),
    appId: text('app_id')
      .notNull()
      .references(() => apps.id, { onDelete: 'cascade' }),
    url: text('url').notNull(),
    description: text('description').notNull().default(''),
    eventTypes: jsonb('event_types').$type<string[]>().notNull(),
    enabled: boolean('enabled').notNull().default(true),
    secretSealed: text('secret_sealed').notNull(),
    secretSealedWith: text('secret_sealed_with').notNull(),
    createdAt: createdAt(),
  },
  (t) => [index('webhook_endpoints_app_idx').on(t.appId)],
);

/**
 * The webhook outbox: one row per event and endpoint, written in the transaction of the change that
 * caused the event, then claimed and posted by a worker (server/webhooks/worker.ts). `eventId` is the
 * webhook-id header, the same for every attempt and resend of the event to that endpoint.
 */
export const webhookDeliveries = pgTable(
  'webhook_deliveries',
  {
    id: text('id').primaryKey(),
    eventId: text('event_id').notNull(),
    appId: text('app_id')
      .notNull()
      .references(() => apps.id, { onDelete: 'cascade' }),
    endpointId: text('endpoint_id')
      .notNull()
      .references(() => webhookEndpoints.id, { onDelete: 'cascade' }),
    eventType: text('event_type').notNull(),
    /** The posted body, {events:[{type, timestamp, data}]}. */
    body: jsonb('body').$type<{ events: { type: string; timestamp: string; data: unknown }[] }>().notNull(),
    /** pending (waiting for its next attempt), delivering (claimed by a worker until claimedUntil), succeeded or failed. */
    status: text('status').$type<'pending' | 'delivering' | 'succeeded' | 'failed'>().notNull().default('pending'),
    attempts: integer('attempts').notNull().default(0),
    nextAttemptAt: timestamp('next_attempt_at', { withTimezone: true }).notNull().defaultNow(),
    claimedUntil: timestamp('claimed_until', { withTimezone: true }),
    lastAttemptAt: timestamp('last_attempt_at', { withTimezone: true }),
    lastResponseCode: integer('last_response_code'),
    lastDurationMs: integer('last_duration_ms'),
    lastError: text('last_error'),
    createdAt: createdAt(),
  },
  (t) => [
    index('webhook_deliveries_due_idx').on(t.status, t.nextAttemptAt),
    index('webhook_deliveries_endpoint_idx').on(t.endpointId, t.createdAt),
  ],
);
