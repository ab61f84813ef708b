// Social sign-in between the two redirects: starting one (state, nonce and PKCE verifier kept under a
// hash of the state, single use, ten minutes), finishing one (the code exchanged and checked by
// openid-client), and deciding who the person is in the app: the identity linked to the provider's
// subject; else, only when the provider says the e-mail is verified, the identity with that e-mail or
// a new account (when the person asked to sign up and the app allows self-signup). An e-mail the
// provider does not vouch for makes and links nothing: an account at someone else's address would be
// waiting for its owner (pre-account hijacking).
import { createHash, randomUUID } from 'node:crypto';
import { and, eq, gt, lt, sql } from 'drizzle-orm';
import * as client from 'openid-client';
import type { FoyerContext } from '../../context.ts';
import type { Database } from '../../db/client.ts';
import { federatedIdentities, federationStates, tenants, tenantUsers, users } from '../../db/schema.ts';
import { HttpError } from '../../http/errors.ts';
import { recordAudit } from '../../audit/service.ts';
import { recordWithinLimits, type RequestLimit } from '../../audit/limits.ts';
import { DEFAULT_LOCALE } from '../../../common/locales.ts';
import type { FederationType } from '../../../common/app-config.ts';
import type { App } from '../../apps/lookup.ts';
import { findUserByEmail, normalizeUsername, type User } from '../sign-in.ts';
import { upstreamFor, type FederatedProfile, type Upstream } from './providers.ts';
import { emitTenantEvent, emitTenantUserEvent } from '../../outbox/outbox.ts';

export const FEDERATION_STATE_TTL_SECONDS = 10 * 60;

/**
 * Sign-ins started with a provider (social or enterprise) per app and client address: each start
 * keeps a state row, and a SAML one a request id, for FEDERATION_STATE_TTL_SECONDS, so a stranger's
 * burst of starts stores a bounded number. Generous, like passkey options: a company behind one
 * address signs in through its connection at once.
 */
export const FEDERATION_STARTS: readonly RequestLimit[] = [{ max: 300, windowMinutes: 15, per: ['app', 'ip'] }];

/** Counts a start against FEDERATION_STARTS, or refuses it (429) once `ip` has reached the limit for the app. */
export async function countFederationStart(db: Database, appId: string, ip: string): Promise<void> {
  if (!(await recordWithinLimits(db, 'federation.started', { appId, ip, username: '' }, FEDERATION_STARTS))) {
    throw new HttpError(429, 'TOO_MANY_REQUESTS', 'Too many sign-ins started from this address; try again later');
  }
}

export type FederationIntent = 'login' | 'signup';

const hashState = (state: string) => createHash('sha256').update(state).digest('hex');

export const stateInvalid = () =>
  new HttpError(
    400,
    'FEDERATION_STATE_INVALID',
    'This sign-in with the provider has expired, was already used or was started in another browser; start again',
  );

export const federationFailed = () => new HttpError(400, 'FEDERATION_FAILED', 'The provider did not confirm the sign-in; start again');

/** Keeps what the callback needs and answers the provider's authorization address and the state. */
export async function startFederation(
  db: Database,
  app: App,
  upstream: Upstream,
  intent: FederationIntent,
): Promise<{ url: string; state: string }> {
  const state = client.randomState();
  const nonce = client.randomNonce();
  const codeVerifier = client.randomPKCECodeVerifier();
  await db.insert(federationStates).values({
    stateHash: hashState(state),
    appId: app.id,
    provider: upstream.type,
    intent,
    upstream: upstream.source,
    nonce,
    codeVerifier,
    expiresAt: new Date(Date.now() + FEDERATION_STATE_TTL_SECONDS * 1000),
  });
  const parameters: Record<string, string> = {
    redirect_uri: upstream.redirectUri,
    scope: upstream.scope,
    state,
    code_challenge: await client.calculatePKCECodeChallenge(codeVerifier),
    code_challenge_method: 'S256',
  };
  if (upstream.protocol === 'oidc') parameters.nonce = nonce;
  if (upstream.responseMode) parameters.response_mode = upstream.responseMode;
  return { url: client.buildAuthorizationUrl(upstream.configuration, parameters).href, state };
}

/** The started sign-in a callback's state names, taken (deleted) so it can be used once. */
export async function takeFederationState(db: Database, type: FederationType, state: string) {
  const [row] = await db
    .delete(federationStates)
    .where(and(eq(federationStates.stateHash, hashState(state)), gt(federationStates.expiresAt, sql`now()`)))
    .returning();
  if (!row || row.provider !== type) throw stateInvalid();
  return row;
}

export type FederationState = Awaited<ReturnType<typeof takeFederationState>>;

/** Exchanges the callback's code (PKCE, state, nonce and the ID token checked) and reads the person. */
export async function finishFederation(
  context: FoyerContext,
  app: App,
  started: FederationState,
  callbackUrl: URL,
): Promise<{ upstream: Upstream; profile: FederatedProfile }> {
  const upstream = await upstreamFor(context, app, started.provider as FederationType, started.upstream);
  if (!upstream) throw federationFailed();
  try {
    const tokens = await client.authorizationCodeGrant(upstream.configuration, callbackUrl, {
      pkceCodeVerifier: started.codeVerifier,
      expectedState: callbackUrl.searchParams.get('state') ?? undefined,
      ...(upstream.protocol === 'oidc' ? { expectedNonce: started.nonce, idTokenExpected: true } : {}),
    });
    return { upstream, profile: await upstream.profile(tokens) };
  } catch (error) {
    throw Object.assign(federationFailed(), { cause: error });
  }
}

export type FederatedOutcome =
  | { kind: 'user'; user: User }
  /** Nobody in the app has signed in with this provider account, and no account was made. */
  | { kind: 'missing' }
  /**
   * The provider gave no e-mail or does not vouch for it: never merged into an account, nor made one
   * (the same answer whether or not an account has the address).
   */
  | { kind: 'unverified' };

async function linkedUser(db: Database, appId: string, type: string, subject: string): Promise<User | undefined> {
  const [row] = await db
    .select({ user: users })
    .from(federatedIdentities)
    .innerJoin(users, eq(users.id, federatedIdentities.userId))
    .where(and(eq(federatedIdentities.appId, appId), eq(federatedIdentities.provider, type), eq(federatedIdentities.subject, subject)))
    .limit(1);
  return row?.user;
}

/** A new identity with its own workspace (OWNER, usable at once: the provider vouched for the e-mail). */
async function signUpFederated(
  context: FoyerContext,
  app: App,
  type: string,
  profile: FederatedProfile & { email: string },
  ip: string,
): Promise<User> {
  // As a signup without a plan (server/graphql/signup/service.ts): the owner picks one when the app has plans.
  const shouldSelectPlan = (app.settings.payments?.plans ?? []).length > 0;
  return context.db.transaction(async (tx) => {
    const [user] = await tx
      .insert(users)
      .values({
        id: randomUUID(),
        appId: app.id,
        email: profile.email,
        firstName: profile.firstName,
        lastName: profile.lastName,
        emailVerifiedAt: new Date(),
        // The provider gave the profile onboarding would ask for.
        onboarded: Boolean(profile.firstName && profile.lastName),
      })
      .returning();
    const tenantId = randomUUID();
    await tx.insert(tenants).values({ id: tenantId, appId: app.id, name: '', locale: DEFAULT_LOCALE, onboarded: false, shouldSelectPlan });
    const tenantUserId = randomUUID();
    await tx
      .insert(tenantUsers)
      .values({ id: tenantUserId, tenantId, userId: user!.id, role: 'OWNER', enabled: true, onboarded: false, customParams: {} });
    await tx
      .insert(federatedIdentities)
      .values({ id: randomUUID(), appId: app.id, userId: user!.id, provider: type, subject: profile.subject, email: profile.email });
    await recordAudit(tx, {
      type: 'tenant.signup',
      appId: app.id,
      userId: user!.id,
      tenantUserId,
      ip,
      detail: { tenantId, federation: type },
    });
    await emitTenantEvent(tx, app.id, 'TENANT_CREATED', tenantId);
    await emitTenantUserEvent(tx, app.id, 'TENANT_USER_CREATED', tenantUserId);
    return user!;
  });
}

/**
 * Who the provider's person is in the app. A linked subject signs in; otherwise nothing happens
 * without the provider's word that the e-mail is verified; with it, an identity with the same e-mail
 * is linked, or else a signup (asked for, and open in the app) makes a new account.
 */
export async function resolveFederatedUser(
  context: FoyerContext,
  input: { app: App; type: FederationType; intent: FederationIntent; profile: FederatedProfile; ip: string },
): Promise<FederatedOutcome> {
  const { db } = context;
  const { app, type, profile } = input;
  const linked = await linkedUser(db, app.id, type, profile.subject);
  if (linked) return { kind: 'user', user: linked };
  if (!profile.email || !profile.emailVerified) return { kind: 'unverified' };
  const email = normalizeUsername(profile.email);
  const existing = await findUserByEmail(db, app.id, email);
  if (existing) {
    await db
      .insert(federatedIdentities)
      .values({ id: randomUUID(), appId: app.id, userId: existing.id, provider: type, subject: profile.subject, email })
      .onConflictDoNothing();
    await recordAudit(db, { type: 'federation.linked', appId: app.id, userId: existing.id, ip: input.ip, detail: { federation: type } });
    return { kind: 'user', user: existing };
  }
  if (input.intent !== 'signup' || !app.settings.tenantSelfSignup) return { kind: 'missing' };
  return { kind: 'user', user: await signUpFederated(context, app, type, { ...profile, email }, input.ip) };
}

export async function purgeExpiredFederationStates(db: Database): Promise<void> {
  await db.delete(federationStates).where(lt(federationStates.expiresAt, sql`now()`));
}
