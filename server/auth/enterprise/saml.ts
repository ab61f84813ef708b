// SAML 2.0 connections through @node-saml/node-saml: the AuthnRequest (its id kept in the database,
// so any instance checks the response's InResponseTo), and the IdP's response checked for a valid
// signature on the assertion (wantAssertionsSigned) by one of the connection's certificates, the
// audience (Foyer's entity id for the connection), the time window, InResponseTo; then here the
// Recipient and Destination (the connection's ACS URL, which node-saml leaves to its caller) and the
// assertion id, remembered until the assertion expires so the same assertion never signs in twice.
import { and, eq, gt, lt, sql } from 'drizzle-orm';
import { DOMParser } from '@xmldom/xmldom';
import type { CacheProvider, Profile, SAML } from '@node-saml/node-saml';
import type { ServerConfig } from '../../config.ts';
import type { Database } from '../../db/client.ts';
import { samlMessageIds } from '../../db/schema.ts';
import { samlAcsUrl, samlEntityId, type EnterpriseConnection } from './connections.ts';
import type { EnterpriseProfile } from './profile.ts';

/** How long an AuthnRequest waits for its response, as the federation states do. */
const REQUEST_TTL_MS = 10 * 60 * 1000;
/** Clocks of Foyer and the IdP may differ this much. */
const CLOCK_SKEW_MS = 60 * 1000;

/** node-saml's request-id cache, in the database and per connection. */
function requestIdCache(db: Database, connectionId: string): CacheProvider {
  const row = (key: string) =>
    and(eq(samlMessageIds.kind, 'request'), eq(samlMessageIds.connectionId, connectionId), eq(samlMessageIds.id, key));
  return {
    async saveAsync(key, value) {
      const createdAt = Date.now();
      await db
        .insert(samlMessageIds)
        .values({ kind: 'request', connectionId, id: key, value, expiresAt: new Date(createdAt + REQUEST_TTL_MS) })
        .onConflictDoNothing();
      return { value, createdAt };
    },
    async getAsync(key) {
      const [found] = await db
        .select({ value: samlMessageIds.value })
        .from(samlMessageIds)
        .where(and(row(key), gt(samlMessageIds.expiresAt, sql`now()`)))
        .limit(1);
      return found?.value ?? null;
    },
    async removeAsync(key) {
      if (!key) return null;
      const [removed] = await db.delete(samlMessageIds).where(row(key)).returning({ value: samlMessageIds.value });
      return removed?.value ?? null;
    },
  };
}

/**
 * node-saml and its XML signature packages are loaded with the first SAML sign-in rather than with the
 * server: they are a tenth of its code (npm run bench -- server-start). Through ./node-saml.ts, which
 * imports them statically: see why there.
 */
export async function samlClient(config: ServerConfig, db: Database, connection: EnterpriseConnection): Promise<SAML> {
  const { SAML: SamlClient, ValidateInResponseTo } = await import('./node-saml.ts');
  const entityId = samlEntityId(config, connection.id);
  return new SamlClient({
    callbackUrl: samlAcsUrl(config, connection.id),
    entryPoint: connection.samlSsoUrl ?? undefined,
    issuer: entityId,
    audience: entityId,
    idpIssuer: connection.samlIdpEntityId ?? undefined,
    idpCert: connection.samlIdpCerts ?? [],
    wantAssertionsSigned: true,
    // Either the response or the assertion signed would do; the assertion's signature is the one
    // required (above), so a signed response around an unsigned assertion is refused too.
    wantAuthnResponseSigned: false,
    validateInResponseTo: ValidateInResponseTo.always,
    requestIdExpirationPeriodMs: REQUEST_TTL_MS,
    cacheProvider: requestIdCache(db, connection.id),
    acceptedClockSkewMs: CLOCK_SKEW_MS,
    identifierFormat: 'urn:oasis:names:tc:SAML:1.1:nameid-format:emailAddress',
    disableRequestedAuthnContext: true,
  });
}

/** The IdP's sign-in address with a new AuthnRequest; `relayState` comes back with the response. */
export async function samlLoginUrl(
  config: ServerConfig,
  db: Database,
  connection: EnterpriseConnection,
  relayState: string,
): Promise<string> {
  return (await samlClient(config, db, connection)).getAuthorizeUrlAsync(relayState, undefined, {});
}

export class SamlRefused extends Error {}

type Parsed = { $?: Record<string, string> } & Record<string, unknown>;

function firstOf(node: unknown, name: string): Parsed | undefined {
  const list = (node as Record<string, unknown> | undefined)?.[name];
  return Array.isArray(list) ? (list[0] as Parsed) : undefined;
}

function attribute(profile: Profile, ...names: string[]): string | null {
  for (const name of names) {
    const value = profile[name];
    if (typeof value === 'string' && value.trim()) return value.trim();
  }
  return null;
}

/** The person an IdP's (base64) SAMLResponse names, once every check passed; SamlRefused otherwise. */
export async function checkSamlResponse(
  config: ServerConfig,
  db: Database,
  connection: EnterpriseConnection,
  samlResponse: string,
): Promise<EnterpriseProfile> {
  const client = await samlClient(config, db, connection);
  const acsUrl = samlAcsUrl(config, connection.id);
  let profile: Profile | null;
  try {
    ({ profile } = await client.validatePostResponseAsync({ SAMLResponse: samlResponse }));
  } catch (error) {
    throw Object.assign(new SamlRefused('The IdP response did not pass the checks'), { cause: error });
  }
  if (!profile) throw new SamlRefused('The IdP answered without an assertion');
  // The request is answered: its id never serves another response.
  if (typeof profile.inResponseTo === 'string') await client.cacheProvider.removeAsync(profile.inResponseTo);

  // SAML core 3.2.2: a response that names its Destination must name this ACS.
  const response = new DOMParser({ errorHandler: () => undefined }).parseFromString(
    profile.getSamlResponseXml?.() ?? '',
    'text/xml',
  ).documentElement;
  const destination = response?.getAttribute('Destination');
  if (destination && destination !== acsUrl) throw new SamlRefused('The response was sent to another destination');

  const assertion = (profile.getAssertion?.() as { Assertion?: Parsed } | undefined)?.Assertion;
  const confirmation = firstOf(firstOf(firstOf(assertion, 'Subject'), 'SubjectConfirmation'), 'SubjectConfirmationData');
  if (confirmation?.$?.Recipient !== acsUrl) throw new SamlRefused('The assertion names another recipient');
  const assertionId = assertion?.$?.ID;
  if (!assertionId) throw new SamlRefused('The assertion has no id');
  const notOnOrAfter = Date.parse(confirmation.$.NotOnOrAfter ?? firstOf(assertion, 'Conditions')?.$?.NotOnOrAfter ?? '');
  const expiresAt = new Date((Number.isNaN(notOnOrAfter) ? Date.now() + REQUEST_TTL_MS : notOnOrAfter) + CLOCK_SKEW_MS);
  const remembered = await db
    .insert(samlMessageIds)
    .values({ kind: 'assertion', connectionId: connection.id, id: assertionId, expiresAt })
    .onConflictDoNothing()
    .returning({ id: samlMessageIds.id });
  if (remembered.length === 0) throw new SamlRefused('This assertion was already used');

  const nameId = profile.nameID;
  if (!nameId) throw new SamlRefused('The assertion names nobody');
  const email = attribute(profile, 'email', 'mail', 'http://schemas.xmlsoap.org/ws/2005/05/identity/claims/emailaddress') ?? nameId;
  return {
    subject: nameId,
    email: email.includes('@') ? email : null,
    // The signed assertion is the IdP's own word, and only its connection's verified domains are let in (profile.ts).
    emailVerified: true,
    firstName: attribute(profile, 'firstName', 'givenName', 'http://schemas.xmlsoap.org/ws/2005/05/identity/claims/givenname'),
    lastName: attribute(profile, 'lastName', 'sn', 'surname', 'http://schemas.xmlsoap.org/ws/2005/05/identity/claims/surname'),
  };
}

export async function purgeExpiredSamlIds(db: Database): Promise<void> {
  await db.delete(samlMessageIds).where(lt(samlMessageIds.expiresAt, sql`now()`));
}
