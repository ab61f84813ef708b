// Proof that a workspace holds an e-mail domain before its connection captures that domain's logins:
// a DNS TXT record `foyer-verification=<token>` at the domain, looked up with node:dns through the
// configured servers (FOYER_DNS_SERVERS; the system's otherwise); or a mail to one of the domain's
// role mailboxes (postmaster@ and the like: any other mailbox is one person's, who does not speak
// for the domain) whose link, single use and expiring, is kept only as its SHA-256 and confirmed by
// whoever reads that mailbox. A public mail domain is never proved (./public-mail-domains.ts), and
// one claim per domain and app is verified at most (enterprise_domains_verified_idx): the first to
// prove it holds it until the app's operator releases it (server/admin/enterprise-connections.ts).
import { createHash, randomBytes } from 'node:crypto';
import { Resolver } from 'node:dns/promises';
import { and, eq, gt, inArray, isNotNull, ne, sql, type SQL } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import type { ServerConfig } from '../../config.ts';
import type { FoyerContext } from '../../context.ts';
import type { FieldIssue } from '../../http/field-issues.ts';
import type { Database } from '../../db/client.ts';
import { apps, enterpriseConnections, enterpriseDomains, tenants } from '../../db/schema.ts';
import { isPublicMailDomain } from './public-mail-domains.ts';
import { DOMAIN_MAILBOXES } from '../../../common/domain-mailboxes.ts';

type EnterpriseDomain = typeof enterpriseDomains.$inferSelect;

export const verificationRecord = (token: string) => `foyer-verification=${token}`;

function resolverFor(config: ServerConfig): Resolver {
  const resolver = new Resolver({ timeout: 3000, tries: 2 });
  if (config.dnsServers.length > 0) resolver.setServers(config.dnsServers);
  return resolver;
}

/** The TXT records at `domain`, each joined from its strings; none when the name has none or does not resolve. */
async function txtRecords(config: ServerConfig, domain: string): Promise<string[]> {
  try {
    return (await resolverFor(config).resolveTxt(domain)).map((chunks) => chunks.join(''));
  } catch {
    return [];
  }
}

/** Why a claim cannot be verified: the domain is a public mail domain, or another claim of the app holds it. */
export type ClaimRefusal = 'publicMailDomain' | 'domainClaimed';

/** The first of `domains` that a connection of the app other than `connectionId` holds a verified claim of. */
export async function domainClaimedElsewhere(db: Database, appId: string, connectionId: string | undefined, domains: string[]) {
  const [row] = await db
    .select({ domain: enterpriseDomains.domain })
    .from(enterpriseDomains)
    .where(
      and(
        eq(enterpriseDomains.appId, appId),
        inArray(enterpriseDomains.domain, domains),
        isNotNull(enterpriseDomains.verifiedAt),
        connectionId ? ne(enterpriseDomains.connectionId, connectionId) : undefined,
      ),
    )
    .orderBy(enterpriseDomains.domain)
    .limit(1);
  return row?.domain;
}

/** Why the claim may not be verified (or proved by mail), or undefined when it may. */
export async function claimRefusal(db: Database, claim: EnterpriseDomain): Promise<ClaimRefusal | undefined> {
  if (await isPublicMailDomain(claim.domain)) return 'publicMailDomain';
  if (await domainClaimedElsewhere(db, claim.appId, claim.connectionId, [claim.domain])) return 'domainClaimed';
  return undefined;
}

const VERIFIED_CLAIM_INDEX = 'enterprise_domains_verified_idx';

/** PostgreSQL's unique_violation of the one verified claim per domain and app. */
function isVerifiedClaimConflict(error: unknown): boolean {
  for (let cause = error; cause instanceof Error; cause = cause.cause) {
    const { code, constraint_name, constraint } = cause as Error & { code?: string; constraint_name?: string; constraint?: string };
    if (code === '23505') return (constraint_name ?? constraint) === VERIFIED_CLAIM_INDEX;
  }
  return false;
}

/**
 * Marks the claim verified (with `set`'s other changes) unless another claim of its app holds the
 * domain; two at once meet the unique index, which lets one win. Answers the verified row, or none.
 */
async function markVerified(db: Database, where: SQL | undefined, set: Partial<typeof enterpriseDomains.$inferInsert> = {}) {
  const other = alias(enterpriseDomains, 'other');
  const otherVerified = db
    .select({ one: sql`1` })
    .from(other)
    .where(
      and(
        eq(other.appId, enterpriseDomains.appId),
        eq(other.domain, enterpriseDomains.domain),
        ne(other.connectionId, enterpriseDomains.connectionId),
        isNotNull(other.verifiedAt),
      ),
    );
  try {
    const [row] = await db
      .update(enterpriseDomains)
      .set({ ...set, verifiedAt: sql`coalesce(${enterpriseDomains.verifiedAt}, now())` })
      .where(and(where, sql`not exists (${otherVerified})`))
      .returning();
    return row;
  } catch (error) {
    if (isVerifiedClaimConflict(error)) return undefined;
    throw error;
  }
}

/** Looks for the domain's record; on a match marks the domain verified. Answers 'verified', 'missing' or why it may not be. */
export async function verifyDomain(
  config: ServerConfig,
  db: Database,
  claim: EnterpriseDomain,
): Promise<'verified' | 'missing' | ClaimRefusal> {
  if (claim.verifiedAt) return 'verified';
  const refusal = await claimRefusal(db, claim);
  if (refusal) return refusal;
  const expected = verificationRecord(claim.token);
  if (!(await txtRecords(config, claim.domain)).some((record) => record.trim() === expected)) return 'missing';
  const verified = await markVerified(
    db,
    and(eq(enterpriseDomains.connectionId, claim.connectionId), eq(enterpriseDomains.domain, claim.domain)),
  );
  return verified ? 'verified' : 'domainClaimed';
}

/**
 * Releases the app's verified claim of `domain`: the domain leaves the connection that held it, whose
 * workspace (or another) may claim and prove it again. Answers the released claim, or none.
 */
export async function releaseVerifiedClaim(db: Database, appId: string, domain: string): Promise<EnterpriseDomain | undefined> {
  const [released] = await db
    .delete(enterpriseDomains)
    .where(and(eq(enterpriseDomains.appId, appId), eq(enterpriseDomains.domain, domain), isNotNull(enterpriseDomains.verifiedAt)))
    .returning();
  return released;
}

/** How long a proof mail's link works. */
export const DOMAIN_MAIL_TTL_SECONDS = 24 * 60 * 60;

const hashProofToken = (token: string) => createHash('sha256').update(token).digest('hex');

/** `address` is one of the role mailboxes at exactly `domain` (not a subdomain, not another domain). */
export function isRoleMailboxAt(domain: string, address: string): boolean {
  const normalized = address.trim().toLowerCase();
  return DOMAIN_MAILBOXES.some((mailbox) => normalized === `${mailbox}@${domain}`);
}

/** The field issue of an address that is not one of the domain's role mailboxes. */
export const roleMailboxIssue = (domain: string): FieldIssue => ({
  code: 'roleMailbox',
  params: { domain, mailboxes: [...DOMAIN_MAILBOXES] },
  message: `Send the proof to one of the domain's role mailboxes: ${DOMAIN_MAILBOXES.map((mailbox) => `${mailbox}@${domain}`).join(', ')}`,
});

/** The field issue of a claim that may not be verified, and its English text. */
export function claimRefusalIssue(refusal: ClaimRefusal, domain: string): FieldIssue {
  return refusal === 'publicMailDomain'
    ? { code: refusal, params: { domain }, message: `${domain} is a public mail domain; it cannot be claimed` }
    : {
        code: refusal,
        params: { domain },
        message: `${domain} is already verified by another connection of this app; the app's operator can release it`,
      };
}

export const domainProofUrl = (config: ServerConfig, token: string) => `${config.urls.auth}/federated/domain-proof/${token}`;

/** The workspace and app a domain claim belongs to, for the mail and the confirmation page. */
async function claimContext(db: Database, connectionId: string) {
  const [row] = await db
    .select({ workspace: tenants.name, locale: tenants.locale, app: apps.name })
    .from(enterpriseConnections)
    .innerJoin(tenants, eq(tenants.id, enterpriseConnections.tenantId))
    .innerJoin(apps, eq(apps.id, enterpriseConnections.appId))
    .where(eq(enterpriseConnections.id, connectionId))
    .limit(1);
  return row && { ...row, workspace: row.workspace.trim() || row.app };
}

/**
 * Sends a proof mail for the claim to `address` (checked to be one of its role mailboxes, and the claim
 * to be allowed, by the caller: isRoleMailboxAt, claimRefusal); a new
 * mail replaces the previous link. Answers whether the mail went out.
 */
export async function sendDomainProof(context: FoyerContext, claim: EnterpriseDomain, address: string): Promise<boolean> {
  const { db, config, notifier } = context;
  const token = randomBytes(32).toString('base64url');
  const about = await claimContext(db, claim.connectionId);
  if (!about) return false;
  const to = address.trim().toLowerCase();
  await db
    .update(enterpriseDomains)
    .set({ mailTokenHash: hashProofToken(token), mailSentTo: to, mailExpiresAt: new Date(Date.now() + DOMAIN_MAIL_TTL_SECONDS * 1000) })
    .where(and(eq(enterpriseDomains.connectionId, claim.connectionId), eq(enterpriseDomains.domain, claim.domain)));
  const delivery = await notifier.send({
    appId: claim.appId,
    to,
    kind: 'domain-proof',
    locale: about.locale,
    link: domainProofUrl(config, token),
    workspace: about.workspace,
    domain: claim.domain,
    expiresInSeconds: DOMAIN_MAIL_TTL_SECONDS,
  });
  return delivery.delivered;
}

/** What the confirmation page names: the claim a live link stands for, or nothing (expired, used, unknown). */
export async function findDomainProof(db: Database, token: string) {
  const [claim] = await db
    .select()
    .from(enterpriseDomains)
    .where(and(eq(enterpriseDomains.mailTokenHash, hashProofToken(token)), gt(enterpriseDomains.mailExpiresAt, sql`now()`)))
    .limit(1);
  const about = claim && (await claimContext(db, claim.connectionId));
  return claim && about ? { domain: claim.domain, ...about } : undefined;
}

/**
 * Spends the link and marks its claim verified (one update: two confirmations cannot both win), unless
 * the domain is public or another claim of the app holds it: then the link is spent all the same and
 * the answer says why. Nothing for a link that no longer works.
 */
export async function confirmDomainProof(db: Database, token: string) {
  const live = and(eq(enterpriseDomains.mailTokenHash, hashProofToken(token)), gt(enterpriseDomains.mailExpiresAt, sql`now()`));
  const [pending] = await db.select().from(enterpriseDomains).where(live).limit(1);
  if (!pending) return undefined;
  const about = await claimContext(db, pending.connectionId);
  if (!about) return undefined;
  const spent = { mailTokenHash: null, mailExpiresAt: null };
  const refusal = (await claimRefusal(db, pending)) ?? ((await markVerified(db, live, spent)) ? undefined : 'domainClaimed');
  if (refusal) {
    const [spentNow] = await db.update(enterpriseDomains).set(spent).where(live).returning({ domain: enterpriseDomains.domain });
    // Spent meanwhile by a confirmation that won: the link no longer works.
    if (!spentNow) return undefined;
  }
  return { domain: pending.domain, ...about, refusal };
}
