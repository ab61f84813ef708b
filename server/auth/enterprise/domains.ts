// Proof that a workspace holds an e-mail domain before its connection captures that domain's logins:
// a DNS TXT record `foyer-verification=<token>` at the domain, looked up with node:dns through the
// configured servers (FOYER_DNS_SERVERS; the system's otherwise).
import { Resolver } from 'node:dns/promises';
import { and, eq } from 'drizzle-orm';
import type { ServerConfig } from '../../config.ts';
import type { Database } from '../../db/client.ts';
import { enterpriseDomains } from '../../db/schema.ts';

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
