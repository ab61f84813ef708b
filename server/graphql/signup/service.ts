// Self-signup (createTenantAnonymous): a visitor creates a workspace and becomes its owner once the
// mailed link proves the address. The answer is the created workspace whether or not the address
// already has an identity; only the mail differs, and only the address's owner reads it. An existing
// identity is never changed here: its password, names and custom values stay as they are. An app with
// passwords off refuses a password (403 PASSWORD_SIGN_IN_DISABLED); its signup link only confirms.
// Values the signup flow's steps collect (`collect`) are checked with their forms and stored on the
// workspace, the membership and (for a new identity only) the user.
import { randomUUID } from 'node:crypto';
import { and, eq, sql } from 'drizzle-orm';
import type { Database } from '../../db/client.ts';
import { tenants, tenantUsers, users } from '../../db/schema.ts';
import { findPlan, findPrice, plansOf, type Offer } from '../../payments/catalog.ts';
import { passwordPolicyOf } from '../../apps/settings.ts';
import { hashPassword } from '../../auth/passwords.ts';
import { passwordSignInEnabled } from '../../auth/sign-in.ts';
import { issueToken, TOKEN_TTL_SECONDS } from '../../auth/tokens/service.ts';
import { recordAudit } from '../../audit/service.ts';
import { passwordProblems, passwordProblemTexts } from '../../../common/password-policy.ts';
import { matchesOwnerPattern } from '../../../common/owner-pattern.ts';
import { DEFAULT_LOCALE } from '../../../common/locales.ts';
import type { GraphQLContext } from '../context.ts';
import type { App } from '../../apps/lookup.ts';
import type { CreateTenantInput, Tenant } from '../generated/resolvers.ts';
import { foyerError, tooManyRequests } from '../errors.ts';
import { checkName, checkUploadedLogo, InputProblems, isEmail } from '../input.ts';
import { assetsBaseOf } from '../../../common/logos.ts';
import { checkCustomParams } from '../custom-params/service.ts';
import { getTenant } from '../tenants/service.ts';
import { reserveSignup, SIGNUP_LIMIT } from './throttle.ts';
import { confirmAttempt, releaseAttempt } from '../../audit/limits.ts';
import { attributeCatalog } from '../attributes/catalog.ts';
import { checkAttributes, type SortedAttributes } from '../attributes/check.ts';
import type { ServerConfig } from '../../config.ts';
import { emitTenantEvent, emitTenantUserEvent, withdrawWebhookEvents } from '../../outbox/outbox.ts';
import { keyedIssue, maxLengthIssue, plainIssue } from '../../http/field-issues.ts';

/** The flow whose collecting steps feed createTenantAnonymous (flows/signup.json). */
export const SIGNUP_FLOW_ID = 'signup';

/** Longer passwords are refused before hashing, so no request can make the server hash megabytes. */
export const MAX_PASSWORD_LENGTH = 1024;

interface CheckedSignup {
  email: string;
  firstName: string;
  lastName: string;
  password: string | null;
  customParams: Record<string, string>;
  name: string;
  logo: string | null;
  offer: Offer | null;
  attributes: SortedAttributes;
}

/**
 * The plan and price the signup chose (its link's plan, currency and recurrenceInterval), when they
 * are the app's. A plan named without a price takes the plan's only price; with several, the owner
 * picks one on the plan page.
 */
function checkPlan(app: App, input: CreateTenantInput, problems: InputProblems): Offer | null {
  const { plan: key, priceOffer } = input;
  if (!key) {
    if (priceOffer) problems.add('priceOffer', plainIssue('priceOfferNeedsPlan'));
    return null;
  }
  const plan = findPlan(app, key);
  if (!plan) {
    problems.add('plan', plainIssue('noSuchPlan'));
    return null;
  }
  if (!priceOffer) return plan.prices.length === 1 ? { plan, price: plan.prices[0]! } : null;
  const price = findPrice(plan, priceOffer);
  if (!price) problems.add('priceOffer', plainIssue('noSuchPrice'));
  return price ? { plan, price } : null;
}

/**
 * A free offer is the workspace's plan at once; a paid one waits for its checkout (shouldSetupPayments)
 * like an owner's pick on the plan page (server/payments/service.ts); none: the owner picks one.
 */
function planColumns(app: App, offer: Offer | null) {
  if (!offer) return { shouldSelectPlan: plansOf(app).length > 0 };
  if (offer.price.amount > 0) {
    return {
      pendingPlan: offer.plan.key,
      pendingCurrency: offer.price.currency,
      pendingInterval: offer.price.recurrenceInterval,
      shouldSetupPayments: true,
    };
  }
  return { plan: offer.plan.key, planCurrency: offer.price.currency, planInterval: offer.price.recurrenceInterval };
}

function checkPassword(app: App, password: string, problems: InputProblems): void {
  if (password.length > MAX_PASSWORD_LENGTH) {
    problems.add('password', [maxLengthIssue(MAX_PASSWORD_LENGTH)]);
    return;
  }
  // An empty password is never a password, even where the app switched the checks off.
  const found =
    password === ''
      ? (['password.policy.empty'] as const)
      : passwordProblems(password, passwordPolicyOf(app.settings), matchesOwnerPattern);
  if (found.length > 0)
    problems.add(
      'password',
      found.map((problem) => keyedIssue(problem, passwordProblemTexts[problem])),
    );
}

/** The signup's values, checked; what is wrong with them goes to `problems`. */
function checkSignup(config: ServerConfig, app: App, input: CreateTenantInput, problems: InputProblems): CheckedSignup {
  const { owner } = input;
  const email = owner.email.trim();
  if (!isEmail(email)) problems.add('email', plainIssue('enterEmail'));
  const firstName = checkName(problems, 'firstName', owner.firstName ?? '');
  const lastName = checkName(problems, 'lastName', owner.lastName ?? '');
  const password = owner.password ?? null;
  if (password !== null) checkPassword(app, password, problems);
  const custom = checkCustomParams(app.settings, owner.customParams ?? [], problems);
  const name = checkName(problems, 'name', input.name ?? '');
  const logo = checkUploadedLogo(problems, 'logo', input.logo ?? null, assetsBaseOf(config.urls.api, app.id));
  const offer = checkPlan(app, input, problems);
  const collected = checkAttributes(attributeCatalog(config), SIGNUP_FLOW_ID, input.attributes, problems);
  // Custom fields aimed at the person or the workspace are stored as the flow's collected values are.
  const attributes: SortedAttributes = {
    user: { ...custom.user, ...collected.user },
    membership: collected.membership,
    tenant: { ...custom.tenant, ...collected.tenant },
  };
  return { email, firstName, lastName, password, customParams: custom.membership, name, logo, offer, attributes };
}

type Identity = { id: string; locale: string | null };

async function findIdentity(db: Database, appId: string, email: string): Promise<Identity | undefined> {
  const [user] = await db
    .select({ id: users.id, locale: users.locale })
    .from(users)
    .where(and(eq(users.appId, appId), sql`lower(${users.email}) = ${email.toLowerCase()}`))
    .limit(1);
  return user;
}

interface CreatedSignup {
  tenantId: string;
  userId: string;
  /** The identity existed before (the link confirms; the password stays). */
  existing: Identity | undefined;
  token: string;
  /** The webhook events the signup wrote, taken back with it. */
  webhookEventIds: (string | undefined)[];
}

/** User (when new), workspace, disabled OWNER membership, signup token and audit record: all or nothing. */
async function createSignup(
  db: Database,
  app: App,
  signup: CheckedSignup,
  pendingPasswordHash: string | undefined,
  clientIp: string,
  reservation: number,
): Promise<CreatedSignup> {
  return db.transaction(async (tx) => {
    let existing = await findIdentity(tx, app.id, signup.email);
    let userId = existing?.id;
    if (!userId) {
      const [inserted] = await tx
        .insert(users)
        .values({
          id: randomUUID(),
          appId: app.id,
          email: signup.email,
          firstName: signup.firstName || null,
          lastName: signup.lastName || null,
          attributes: signup.attributes.user,
        })
        // A concurrent signup with the same address won the insert: it is an existing identity now.
        .onConflictDoNothing()
        .returning({ id: users.id });
      existing = inserted ? undefined : await findIdentity(tx, app.id, signup.email);
      userId = inserted?.id ?? existing?.id;
      if (!userId) throw new Error('The signup identity was neither inserted nor found');
    }
    const tenantId = randomUUID();
    await tx.insert(tenants).values({
      id: tenantId,
      appId: app.id,
      name: signup.name,
      locale: DEFAULT_LOCALE,
      logo: signup.logo,
      ...planColumns(app, signup.offer),
      onboarded: false,
      attributes: signup.attributes.tenant,
    });
    const tenantUserId = randomUUID();
    // Disabled until the mailed link is used: nobody can sign in to the workspace before that.
    await tx.insert(tenantUsers).values({
      id: tenantUserId,
      tenantId,
      userId,
      role: 'OWNER',
      enabled: false,
      onboarded: false,
      customParams: signup.customParams,
      attributes: signup.attributes.membership,
    });
    const webhookEventIds = [
      await emitTenantEvent(tx, app.id, 'TENANT_CREATED', tenantId),
      await emitTenantUserEvent(tx, app.id, 'TENANT_USER_CREATED', tenantUserId),
    ];
    const token = await issueToken(tx, {
      appId: app.id,
      userId,
      purpose: 'signup',
      tenantUserId,
      // The password of an existing identity is never replaced by whoever typed this address.
      pendingPasswordHash: existing ? undefined : pendingPasswordHash,
    });
    // The reserved signup becomes the audited one in the same transaction, so the limit counts it throughout.
    await releaseAttempt(tx, reservation);
    await recordAudit(tx, { type: 'tenant.signup', appId: app.id, userId, tenantUserId, ip: clientIp, detail: { tenantId } });
    return { tenantId, userId, existing, token, webhookEventIds };
  });
}

/** Takes back a signup whose mail could not go out, so trying again starts clean. */
async function undoSignup(db: Database, created: CreatedSignup): Promise<void> {
  await db.transaction(async (tx) => {
    // The membership and its token go with the workspace.
    await tx.delete(tenants).where(eq(tenants.id, created.tenantId));
    if (!created.existing) await tx.delete(users).where(eq(users.id, created.userId));
    await withdrawWebhookEvents(tx, created.webhookEventIds);
  });
}

export async function signUp(context: GraphQLContext, app: App, input: CreateTenantInput): Promise<Tenant> {
  const { db, config, notifier, clientIp, log } = context;
  if (!app.settings.tenantSelfSignup) throw foyerError('SELF_SIGNUP_DISABLED', 'Signing up is not open for this app');
  if (!passwordSignInEnabled(app) && input.owner.password != null) {
    throw foyerError('PASSWORD_SIGN_IN_DISABLED', 'This app does not use passwords; sign up without one');
  }
  const reservation = await reserveSignup(db, app.id, clientIp);
  if (reservation === null) {
    throw tooManyRequests('Too many signups from this address; try again later', SIGNUP_LIMIT.windowMinutes * 60);
  }
  const problems = new InputProblems();
  const signup = checkSignup(config, app, input, problems);
  const refused = Object.keys(problems.fields);
  if (refused.length > 0) {
    // A refused signup counts like one made: each ran the app's patterns and checks, and refusals
    // nobody limits would let one address run them without end. Its event names the refused fields.
    await confirmAttempt(db, reservation, { detail: { refused } });
    problems.throwIfAny();
  }
  let created: CreatedSignup;
  try {
    // Hashed whether or not the address is known, so the answer takes as long either way.
    const pendingPasswordHash = signup.password === null ? undefined : await hashPassword(signup.password);
    created = await createSignup(db, app, signup, pendingPasswordHash, clientIp, reservation);
  } catch (error) {
    // A signup that failed on Foyer's side does not count.
    await releaseAttempt(db, reservation);
    throw error;
  }

  const delivery = await notifier.send({
    appId: app.id,
    to: signup.email,
    kind: created.existing ? 'signup-existing' : 'signup',
    locale: created.existing?.locale ?? DEFAULT_LOCALE,
    link: `${config.urls.ui}/auth/set-password/${created.token}`,
    expiresInSeconds: TOKEN_TTL_SECONDS.signup,
    workspace: signup.name || undefined,
  });
  if (!delivery.delivered) {
    log.error({ appId: app.id, reason: delivery.reason }, 'signup mail not delivered; signup taken back');
    await undoSignup(db, created);
    throw foyerError('SERVICE_UNAVAILABLE', 'The signup e-mail could not be sent; try again later');
  }
  return getTenant(context.payments, db, app, created.tenantId);
}
