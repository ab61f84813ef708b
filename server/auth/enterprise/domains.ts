// Proof that a workspace holds an e-mail domain before its connection captures that domain's logins:
// a DNS TXT record `foyer-verification=<token>` at the domain, looked up with node:dns through the
// configured servers (FOYER_DNS_SERVERS; the system's otherwise); or a mail to an address at the
// domain (postmaster@, admin@, or any mailbox the owner names there) whose link, single use and
// expiring, is kept only as its SHA-256 and confirmed by whoever reads that mailbox.
import { createHash, randomBytes } from 'node:crypto';
import { Resolver } from 'node:dns/promises';
import { and, eq, gt, sql } from 'drizzle-orm';
import type { ServerConfig } from '../../config.ts';
import type { FoyerContext } from '../../context.ts';
import type { Database } from '../../db/client.ts';
import { apps, enterpriseConnections, enterpriseDomains, tenants } from '../../db/schema.ts';

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

/** Looks for the domain's record; on a match marks the domain verified. Answers whether it is. */
export async function verifyDomain(config: ServerConfig, db: Database, domain: EnterpriseDomain): Promise<boolean> {
  if (domain.verifiedAt) return true;
  const expected = verificationRecord(domain.token);
  if (!(await txtRecords(config, domain.domain)).some((record) => record.trim() === expected)) return false;
  await db
    .update(enterpriseDomains)
    .set({ verifiedAt: new Date() })
    .where(and(eq(enterpriseDomains.connectionId, domain.connectionId), eq(enterpriseDomains.domain, domain.domain)));
  return true;
}

/** How long a proof mail's link works. */
export const DOMAIN_MAIL_TTL_SECONDS = 24 * 60 * 60;
/** Mailboxes a domain's administrators read (RFC 2142 and common practice), offered to the owner. */
export const DOMAIN_MAILBOXES = ['postmaster', 'hostmaster', 'webmaster', 'admin', 'administrator'] as const;
const MAX_ADDRESS = 254;

const hashProofToken = (token: string) => createHash('sha256').update(token).digest('hex');

/** `address` is one mailbox at exactly `domain` (not a subdomain, not another domain). */
export function isAddressAt(domain: string, address: string): boolean {
  const normalized = address.trim().toLowerCase();
  const at = normalized.lastIndexOf('@');
  return (
    normalized.length <= MAX_ADDRESS &&
    at > 0 &&
    normalized.slice(at + 1) === domain &&
    /^[a-z0-9!#$%&'*+/=?^_`{|}~.-]+$/.test(normalized.slice(0, at))
  );
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
 * Sends a proof mail for the claim to `address` (checked to be at the domain by the caller); a new
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

/** Marks the link's claim verified and spends the link (one update: two confirmations cannot both win). */
export async function confirmDomainProof(db: Database, token: string) {
  const [claim] = await db
    .update(enterpriseDomains)
    .set({ verifiedAt: sql`coalesce(${enterpriseDomains.verifiedAt}, now())`, mailTokenHash: null, mailExpiresAt: null })
    .where(and(eq(enterpriseDomains.mailTokenHash, hashProofToken(token)), gt(enterpriseDomains.mailExpiresAt, sql`now()`)))
    .returning();
  const about = claim && (await claimContext(db, claim.connectionId));
  return claim && about ? { domain: claim.domain, ...about } : undefined;
}
