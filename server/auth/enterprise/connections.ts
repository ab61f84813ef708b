// A workspace's enterprise sign-in connections, as its OWNER manages them (server/graphql/enterprise):
// an OpenID Provider (issuer, client id, sealed client secret) or a SAML 2.0 IdP (from its metadata
// XML, or its entity id, sign-in URL and certificate), each with the e-mail domains it serves and the
// role people it signs in get when they join the workspace just in time. A domain routes logins only
// once a DNS TXT record or a role mailbox proves the workspace holds it (./domains.ts); a public mail
// domain is never listed (./public-mail-domains.ts), nor one another connection of the app has proved.
import { randomBytes, randomUUID, X509Certificate } from 'node:crypto';
import { and, eq, inArray, isNotNull } from 'drizzle-orm';
import type { ServerConfig } from '../../config.ts';
import type { Database } from '../../db/client.ts';
import { enterpriseConnections, enterpriseDomains } from '../../db/schema.ts';
import { seal, sealingKey, unseal } from '../../crypto/seal.ts';
import { isRole, type Role } from '../../../common/roles.ts';
import { parseIdpMetadata } from './saml-metadata.ts';
import { claimRefusalIssue, domainClaimedElsewhere, verificationRecord } from './domains.ts';
import { isPublicMailDomain, publicMailDomainsAmong } from './public-mail-domains.ts';
import { allowedValuesIssue, keyedIssue, maxLengthIssue, plainIssue, type FieldIssue } from '../../http/field-issues.ts';

export type EnterpriseConnection = typeof enterpriseConnections.$inferSelect;
export type EnterpriseDomain = typeof enterpriseDomains.$inferSelect;
export type ConnectionKind = 'oidc' | 'saml';

/** Just-in-time members never become OWNER: an IdP's word does not hand over the workspace. */
export const JIT_ROLES: readonly Role[] = ['ADMIN', 'MANAGER', 'VIEWER'];
export const MAX_DOMAINS = 20;
const MAX_NAME = 100;
const MAX_URL = 2048;
const MAX_METADATA = 200_000;

const SECRET_PURPOSE = 'enterprise connection secret v1';

export function sealConnectionSecret(config: ServerConfig, connectionId: string, secret: string): string {
  return seal(sealingKey(config.secret, SECRET_PURPOSE), connectionId, secret);
}

export function openConnectionSecret(config: ServerConfig, connection: EnterpriseConnection): string {
  return unseal(sealingKey(config.secret, SECRET_PURPOSE), connection.id, connection.oidcClientSecretSealed ?? '');
}

/** Where an OpenID Provider sends people back (one address for every OIDC connection: the state names it). */
export const oidcRedirectUri = (config: ServerConfig) => `${config.urls.auth}/federated/oidc/callback`;
/** What the IdP knows Foyer by for this connection (SAML Audience), and where it serves its metadata. */
export const samlEntityId = (config: ServerConfig, id: string) => `${config.urls.auth}/federated/saml/metadata/${id}`;
/** Where the IdP posts its response (Assertion Consumer Service; SAML Recipient and Destination). */
export const samlAcsUrl = (config: ServerConfig, id: string) => `${config.urls.auth}/federated/saml/acs/${id}`;

export interface ConnectionInput {
  kind?: ConnectionKind;
  name: string;
  defaultRole: string;
  domains: string[];
  oidcIssuer?: string | null;
  oidcClientId?: string | null;
  /** Empty or absent on an edit: the stored secret stays. */
  oidcClientSecret?: string | null;
  samlMetadataXml?: string | null;
  samlIdpEntityId?: string | null;
  samlSsoUrl?: string | null;
  samlCertificate?: string | null;
}

/** An input the connection cannot be saved with: the message of each field at fault. */
export class ConnectionInputError extends Error {
  constructor(readonly fields: Record<string, FieldIssue>) {
    super('Some fields are not valid');
  }
}

// A host name of two or more labels (letters, digits, hyphens), as an e-mail address's domain.
const DOMAIN = /^(?=.{4,253}$)([a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z][a-z0-9-]{0,61}[a-z0-9]$/;

export function normalizeDomain(value: string): string {
  return value.trim().toLowerCase().replace(/^@/, '').replace(/\.$/, '');
}

function httpUrl(config: ServerConfig, value: string): boolean {
  if (value.length > MAX_URL) return false;
  const url = URL.parse(value);
  // Outside production a local provider (the development IdP, a test's) may speak plain HTTP.
  return url !== null && (url.protocol === 'https:' || (config.env !== 'production' && url.protocol === 'http:'));
}

function pemCertificate(value: string): string | undefined {
  const body = value.replace(/-----(BEGIN|END) CERTIFICATE-----/g, '').replace(/\s+/g, '');
  const pem = `-----BEGIN CERTIFICATE-----\n${body.match(/.{1,64}/g)?.join('\n') ?? ''}\n-----END CERTIFICATE-----\n`;
  try {
    new X509Certificate(pem);
    return pem;
  } catch {
    return undefined;
  }
}

type ConnectionFields = Omit<typeof enterpriseConnections.$inferInsert, 'id' | 'appId' | 'tenantId' | 'kind' | 'oidcClientSecretSealed'>;

/** Why the well-formed `domains` cannot be claimed by connection `connectionId` of the app, or undefined. */
async function domainsIssue(db: Database, appId: string, connectionId: string | undefined, domains: string[]) {
  const [publicDomain] = await publicMailDomainsAmong(domains);
  if (publicDomain) return claimRefusalIssue('publicMailDomain', publicDomain);
  const claimed = await domainClaimedElsewhere(db, appId, connectionId, domains);
  return claimed ? claimRefusalIssue('domainClaimed', claimed) : undefined;
}

/** The checked, cleaned fields of a connection of `kind` of the app; every problem at once. */
async function checkInput(
  config: ServerConfig,
  db: Database,
  scope: { appId: string; kind: ConnectionKind },
  input: ConnectionInput,
  existing: EnterpriseConnection | undefined,
): Promise<{ fields: ConnectionFields; domains: string[]; secret?: string }> {
  const { kind } = scope;
  const problems: Record<string, FieldIssue> = {};
  const name = input.name.trim();
  if (!name) problems.name = plainIssue('enterName');
  else if ([...name].length > MAX_NAME) problems.name = maxLengthIssue(MAX_NAME);
  if (!isRole(input.defaultRole) || !JIT_ROLES.includes(input.defaultRole)) problems.defaultRole = allowedValuesIssue(JIT_ROLES);
  const domains = [...new Set(input.domains.map(normalizeDomain).filter(Boolean))];
  if (domains.length === 0) problems.domains = keyedIssue('enterDomains', 'Enter at least one e-mail domain');
  else if (domains.length > MAX_DOMAINS)
    problems.domains = { code: 'maxDomains', params: { limit: MAX_DOMAINS }, message: `At most ${MAX_DOMAINS} domains` };
  else if (domains.some((domain) => !DOMAIN.test(domain)))
    problems.domains = keyedIssue('domainFormat', 'Enter domains such as example.com');
  else {
    const issue = await domainsIssue(db, scope.appId, existing?.id, domains);
    if (issue) problems.domains = issue;
  }
  const fields: ConnectionFields = { name, defaultRole: input.defaultRole };
  let secret: string | undefined;
  if (kind === 'oidc') {
    const issuer = input.oidcIssuer?.trim() ?? '';
    if (!httpUrl(config, issuer)) problems.oidcIssuer = plainIssue('enterWebAddress');
    const clientId = input.oidcClientId?.trim() ?? '';
    if (!clientId || clientId.length > 500) problems.oidcClientId = plainIssue('required');
    secret = input.oidcClientSecret?.trim() || undefined;
    if (!secret && !existing?.oidcClientSecretSealed) problems.oidcClientSecret = plainIssue('required');
    else if (secret && secret.length > 2000) problems.oidcClientSecret = maxLengthIssue(2000);
    Object.assign(fields, { oidcIssuer: issuer.replace(/\/+$/, ''), oidcClientId: clientId });
  } else {
    const metadataXml = input.samlMetadataXml?.trim();
    if (metadataXml) {
      const metadata = metadataXml.length <= MAX_METADATA ? parseIdpMetadata(metadataXml) : undefined;
      const certs = metadata?.certificates.map(pemCertificate).filter((cert) => cert !== undefined) ?? [];
      if (!metadata || !httpUrl(config, metadata.ssoUrl) || certs.length === 0) {
        problems.samlMetadataXml = keyedIssue('samlMetadata', 'This is not IdP metadata with a sign-in URL and a signing certificate');
      } else {
        Object.assign(fields, { samlIdpEntityId: metadata.entityId, samlSsoUrl: metadata.ssoUrl, samlIdpCerts: certs });
      }
    } else {
      const entityId = input.samlIdpEntityId?.trim() ?? '';
      if (!entityId || entityId.length > MAX_URL) problems.samlIdpEntityId = plainIssue('required');
      const ssoUrl = input.samlSsoUrl?.trim() ?? '';
      if (!httpUrl(config, ssoUrl)) problems.samlSsoUrl = plainIssue('enterWebAddress');
      const given = input.samlCertificate?.trim();
      const cert = given ? pemCertificate(given) : undefined;
      if (given && !cert) problems.samlCertificate = keyedIssue('certificate', 'This is not an X.509 certificate');
      else if (!cert && !existing?.samlIdpCerts?.length) problems.samlCertificate = plainIssue('required');
      Object.assign(fields, { samlIdpEntityId: entityId, samlSsoUrl: ssoUrl, ...(cert ? { samlIdpCerts: [cert] } : {}) });
    }
  }
  if (Object.keys(problems).length > 0) throw new ConnectionInputError(problems);
  return { fields, domains, secret };
}

/** A connection as the owner's APIs answer it: never its secret, each domain with the TXT record that proves it. */
export function connectionView(config: ServerConfig, connection: EnterpriseConnection, domains: EnterpriseDomain[]) {
  const saml = connection.kind === 'saml';
  return {
    id: connection.id,
    kind: connection.kind,
    name: connection.name,
    defaultRole: connection.defaultRole,
    domains: domains.map((domain) => ({
      domain: domain.domain,
      verified: domain.verifiedAt !== null,
      verificationRecord: verificationRecord(domain.token),
    })),
    oidcIssuer: connection.oidcIssuer,
    oidcClientId: connection.oidcClientId,
    hasClientSecret: Boolean(connection.oidcClientSecretSealed),
    redirectUri: saml ? null : oidcRedirectUri(config),
    samlIdpEntityId: connection.samlIdpEntityId,
    samlSsoUrl: connection.samlSsoUrl,
    samlCertificate: saml ? (connection.samlIdpCerts?.[0] ?? null) : null,
    spEntityId: saml ? samlEntityId(config, connection.id) : null,
    acsUrl: saml ? samlAcsUrl(config, connection.id) : null,
  };
}

export type ConnectionView = ReturnType<typeof connectionView>;

/** The workspace's connection `id` as its owner's APIs answer it, or undefined. */
export async function connectionViewOf(
  config: ServerConfig,
  db: Database,
  tenantId: string,
  id: string,
): Promise<ConnectionView | undefined> {
  const found = (await listConnections(db, tenantId)).find((entry) => entry.connection.id === id);
  return found && connectionView(config, found.connection, found.domains);
}

export async function listConnections(db: Database, tenantId: string) {
  const connections = await db
    .select()
    .from(enterpriseConnections)
    .where(eq(enterpriseConnections.tenantId, tenantId))
    .orderBy(enterpriseConnections.createdAt);
  const domains = connections.length
    ? await db
        .select()
        .from(enterpriseDomains)
        .where(
          inArray(
            enterpriseDomains.connectionId,
            connections.map((connection) => connection.id),
          ),
        )
        .orderBy(enterpriseDomains.domain)
    : [];
  return connections.map((connection) => ({
    connection,
    domains: domains.filter((domain) => domain.connectionId === connection.id),
  }));
}

/** The workspace's connection `id`; another workspace's (or none) reads as not found. */
export async function findConnection(db: Database, tenantId: string, id: string): Promise<EnterpriseConnection | undefined> {
  const [row] = await db
    .select()
    .from(enterpriseConnections)
    .where(and(eq(enterpriseConnections.id, id), eq(enterpriseConnections.tenantId, tenantId)))
    .limit(1);
  return row;
}

/** The domains as the input lists them: kept ones keep their token and proof, new ones get a token. */
async function replaceDomains(db: Database, connection: EnterpriseConnection, domains: string[]) {
  const current = await db.select().from(enterpriseDomains).where(eq(enterpriseDomains.connectionId, connection.id));
  const gone = current.filter((row) => !domains.includes(row.domain)).map((row) => row.domain);
  if (gone.length) {
    await db
      .delete(enterpriseDomains)
      .where(and(eq(enterpriseDomains.connectionId, connection.id), inArray(enterpriseDomains.domain, gone)));
  }
  const added = domains.filter((domain) => !current.some((row) => row.domain === domain));
  if (added.length) {
    await db.insert(enterpriseDomains).values(
      added.map((domain) => ({
        connectionId: connection.id,
        appId: connection.appId,
        domain,
        token: randomBytes(18).toString('base64url'),
      })),
    );
  }
}

export async function createConnection(
  config: ServerConfig,
  db: Database,
  scope: { appId: string; tenantId: string },
  input: ConnectionInput,
): Promise<EnterpriseConnection> {
  const kind = input.kind;
  if (kind !== 'oidc' && kind !== 'saml') throw new ConnectionInputError({ kind: allowedValuesIssue(['oidc', 'saml']) });
  const { fields, domains, secret } = await checkInput(config, db, { appId: scope.appId, kind }, input, undefined);
  const id = randomUUID();
  return db.transaction(async (tx) => {
    const [connection] = await tx
      .insert(enterpriseConnections)
      .values({
        ...fields,
        id,
        appId: scope.appId,
        tenantId: scope.tenantId,
        kind,
        oidcClientSecretSealed: secret ? sealConnectionSecret(config, id, secret) : null,
      })
      .returning();
    await replaceDomains(tx, connection!, domains);
    return connection!;
  });
}

export async function updateConnection(
  config: ServerConfig,
  db: Database,
  existing: EnterpriseConnection,
  input: ConnectionInput,
): Promise<EnterpriseConnection> {
  const { fields, domains, secret } = await checkInput(config, db, { appId: existing.appId, kind: existing.kind }, input, existing);
  return db.transaction(async (tx) => {
    const [connection] = await tx
      .update(enterpriseConnections)
      .set({
        ...fields,
        ...(secret ? { oidcClientSecretSealed: sealConnectionSecret(config, existing.id, secret) } : {}),
        updatedAt: new Date(),
      })
      .where(eq(enterpriseConnections.id, existing.id))
      .returning();
    await replaceDomains(tx, connection!, domains);
    return connection!;
  });
}

export async function deleteConnection(db: Database, existing: EnterpriseConnection): Promise<void> {
  await db.delete(enterpriseConnections).where(eq(enterpriseConnections.id, existing.id));
}

/**
 * The app's connection that serves `domain` with a verified claim (one at most: the index
 * enterprise_domains_verified_idx), as a list. A public mail domain routes to none, even where a claim
 * of it was verified before such domains were refused.
 */
export async function connectionsForDomain(db: Database, appId: string, domain: string): Promise<EnterpriseConnection[]> {
  const rows = await db
    .select({ connection: enterpriseConnections })
    .from(enterpriseDomains)
    .innerJoin(enterpriseConnections, eq(enterpriseConnections.id, enterpriseDomains.connectionId))
    .where(and(eq(enterpriseDomains.appId, appId), eq(enterpriseDomains.domain, domain), isNotNull(enterpriseDomains.verifiedAt)))
    .orderBy(enterpriseConnections.createdAt);
  // The list loads only where a claim exists: most addresses have none.
  if (rows.length === 0 || (await isPublicMailDomain(domain))) return [];
  return rows.map((row) => row.connection);
}

/** Whether `domain` is one of the connection's own, verified (never a public mail domain). */
export async function servesVerifiedDomain(db: Database, connectionId: string, domain: string): Promise<boolean> {
  const [row] = await db
    .select({ domain: enterpriseDomains.domain })
    .from(enterpriseDomains)
    .where(
      and(eq(enterpriseDomains.connectionId, connectionId), eq(enterpriseDomains.domain, domain), isNotNull(enterpriseDomains.verifiedAt)),
    )
    .limit(1);
  return row !== undefined && !(await isPublicMailDomain(domain));
}

/** The connection `id` wherever it is (sign-in routes: the connection names its own app and workspace). */
export async function connectionById(db: Database, id: string): Promise<EnterpriseConnection | undefined> {
  const [row] = await db.select().from(enterpriseConnections).where(eq(enterpriseConnections.id, id)).limit(1);
  return row;
}
