// Social sign-in between the two redirects: starting one (state, nonce and PKCE verifier kept under a
// hash of the state, single use, ten minutes), finishing one (the code exchanged and checked by
// openid-client), and deciding who the person is in the app: the identity linked to the provider's
// subject; else, only when the provider says the e-mail is verified, the identity with that e-mail or
// a new account (when the person asked to sign up and the app allows self-signup). An e-mail the
// provider does not vouch for links nothing and makes nothing usable: an account at someone else's
// address would be waiting for its owner (pre-account hijacking). A signup with one is only held, and
// made when a mailed link, opened in the browser that signed up, proves the address.
import { createHash, randomBytes, randomUUID } from 'node:crypto';
import { and, eq, gt, lt, sql } from 'drizzle-orm';
import * as client from 'openid-client';
import type { FoyerContext } from '../../context.ts';
import type { Database } from '../../db/client.ts';
import { federatedIdentities, federationStates, pendingFederatedSignups, tenants, tenantUsers, users } from '../../db/schema.ts';
import { HttpError } from '../../http/errors.ts';
import { recordAudit } from '../../audit/service.ts';
import { recordWithinLimits, type RequestLimit } from '../../audit/limits.ts';
import { DEFAULT_LOCALE } from '../../../common/locales.ts';
import type { FederationType } from '../../../common/app-config.ts';
import { findApp, type App } from '../../apps/lookup.ts';
import { findUserByEmail, normalizeUsername, type User } from '../sign-in.ts';
import { upstreamFor, type FederatedProfile, type Upstream } from './providers.ts';
import { emitTenantEvent, emitTenantUserEvent } from '../../outbox/outbox.ts';
import type { LoginSession } from '../login-session.ts';

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

/** How long the link that finishes a signup on an unverified e-mail works. */
const FEDERATED_SIGNUP_TTL_SECONDS = 60 * 60;

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
  | { kind: 'unverified' }
  /**
   * A signup (asked for, open in the app) on an e-mail the provider does not vouch for: nothing is made
   * until a mailed link proves the address (holdFederatedSignup, after the answer).
   */
  | { kind: 'pending'; profile: FederatedProfile & { email: string } };

async function linkedUser(db: Database, appId: string, type: string, subject: string): Promise<User | undefined> {
  const [row] = await db
    .select({ user: users })
    .from(federatedIdentities)
    .innerJoin(users, eq(users.id, federatedIdentities.userId))
    .where(and(eq(federatedIdentities.appId, appId), eq(federatedIdentities.provider, type), eq(federatedIdentities.subject, subject)))
    .limit(1);
  return row?.user;
}

/** A new identity with its own workspace (OWNER, usable at once: the provider or a mailed link vouched for the e-mail). */
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
  if (!profile.email) return { kind: 'unverified' };
  const email = normalizeUsername(profile.email);
  if (!profile.emailVerified) {
    // Whether an account has the address is decided after the answer (holdFederatedSignup), so the answer tells nothing.
    const signup = input.intent === 'signup' && app.settings.tenantSelfSignup === true;
    return signup ? { kind: 'pending', profile: { ...profile, email } } : { kind: 'unverified' };
  }
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

/**
 * Runs after the callback answered: when no identity has the address yet, keeps the signup under the
 * hash of a new token, bound to the login session that signed up, and mails the link to the address.
 * An address with an account gets nothing: its owner signs in the way they already do.
 */
export async function holdFederatedSignup(
  context: FoyerContext,
  input: { app: App; type: FederationType; profile: FederatedProfile & { email: string }; loginSessionHash: string },
): Promise<void> {
  const { app, profile } = input;
  if (await findUserByEmail(context.db, app.id, profile.email)) return;
  const token = randomBytes(32).toString('base64url');
  await context.db.insert(pendingFederatedSignups).values({
    tokenHash: hashState(token),
    appId: app.id,
    provider: input.type,
    subject: profile.subject,
    email: profile.email,
    firstName: profile.firstName,
    lastName: profile.lastName,
    loginSessionHash: input.loginSessionHash,
    expiresAt: new Date(Date.now() + FEDERATED_SIGNUP_TTL_SECONDS * 1000),
  });
  await context.notifier.send({
    appId: app.id,
    to: profile.email,
    kind: 'federated-signup',
    // Nobody with the address has a locale yet; the new workspace starts in the default one.
    locale: DEFAULT_LOCALE,
    link: `${context.config.urls.auth}/federated/confirm/${token}`,
    expiresInSeconds: FEDERATED_SIGNUP_TTL_SECONDS,
  });
}

export type FederatedSignupOutcome =
  | { kind: 'user'; app: App; user: User }
  /** Unknown, expired, used, opened in another browser, or the app no longer takes such signups. */
  | { kind: 'invalid' }
  /** Meanwhile an identity took the address (or linked the provider account): nothing was made or linked. */
  | { kind: 'taken'; app: App };

/**
 * Finishes a held signup with its mailed link opened in `session`: it must be live and bound to this
 * very login session (a link opened elsewhere stays unused, like a magic link), and is then spent.
 * Opening it proves the address, so the account is made as a verified signup would be.
 */
export async function finishFederatedSignup(
  context: FoyerContext,
  input: { token: string; session: LoginSession; ip: string; allowed: (app: App, type: FederationType) => boolean },
): Promise<FederatedSignupOutcome> {
  const { db } = context;
  const [held] = await db
    .delete(pendingFederatedSignups)
    .where(
      and(
        eq(pendingFederatedSignups.tokenHash, hashState(input.token)),
        eq(pendingFederatedSignups.loginSessionHash, input.session.idHash),
        eq(pendingFederatedSignups.appId, input.session.appId),
        gt(pendingFederatedSignups.expiresAt, sql`now()`),
      ),
    )
    .returning();
  const app = held && (await findApp(db, held.appId));
  const type = held?.provider as FederationType;
  if (!held || !app?.settings.tenantSelfSignup || !input.allowed(app, type)) return { kind: 'invalid' };
  const taken = async () => Boolean((await findUserByEmail(db, app.id, held.email)) ?? (await linkedUser(db, app.id, type, held.subject)));
  if (await taken()) return { kind: 'taken', app };
  const profile = {
    subject: held.subject,
    email: held.email,
    emailVerified: true,
    firstName: held.firstName,
    lastName: held.lastName,
  };
  try {
    return { kind: 'user', app, user: await signUpFederated(context, app, type, profile, input.ip) };
  } catch (error) {
    // A signup with the address (or a link of the subject) that won the race breaks a unique index.
    if (await taken()) return { kind: 'taken', app };
    throw error;
  }
}

export async function purgeExpiredFederationStates(db: Database): Promise<void> {
  await db.delete(federationStates).where(lt(federationStates.expiresAt, sql`now()`));
  await db.delete(pendingFederatedSignups).where(lt(pendingFederatedSignups.expiresAt, sql`now()`));
}
