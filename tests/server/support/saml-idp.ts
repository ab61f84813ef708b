// A test SAML 2.0 IdP: its own RSA key and self-signed certificate (@peculiar/x509), and responses it
// signs with xml-crypto the way IdPs do (an enveloped, exclusive-c14n RSA-SHA256 signature on the
// assertion, after its Issuer). Each response can be bent for the hostile cases: another audience,
// recipient or destination, another key, no signature, an old time window.
import { inflateRawSync } from 'node:zlib';
import { randomUUID, webcrypto } from 'node:crypto';
// @peculiar/x509 needs the Reflect metadata polyfill loaded first (its README says so); the server
// loads it only with the passkey library now, on the first passkey ceremony.
import 'reflect-metadata';
import * as x509 from '@peculiar/x509';
import { SignedXml } from 'xml-crypto';

export interface TestIdp {
  entityId: string;
  ssoUrl: string;
  certificatePem: string;
  privateKeyPem: string;
  /** IdP metadata XML naming the entity id, the HTTP-Redirect sign-in URL and the certificate. */
  metadataXml: string;
}

const toPem = (label: string, der: ArrayBuffer) =>
  `-----BEGIN ${label}-----\n${Buffer.from(der)
    .toString('base64')
    .match(/.{1,64}/g)!
    .join('\n')}\n-----END ${label}-----\n`;

export async function createTestIdp(name = 'idp'): Promise<TestIdp> {
  x509.cryptoProvider.set(webcrypto as unknown as Crypto);
  const algorithm = { name: 'RSASSA-PKCS1-v1_5', hash: 'SHA-256', publicExponent: new Uint8Array([1, 0, 1]), modulusLength: 2048 };
  const keys = await webcrypto.subtle.generateKey(algorithm, true, ['sign', 'verify']);
  const certificate = await x509.X509CertificateGenerator.createSelfSigned({
    serialNumber: '01',
    name: `CN=${name}.saml.test`,
    notBefore: new Date(Date.now() - 86_400_000),
    notAfter: new Date(Date.now() + 86_400_000),
    keys: keys as unknown as CryptoKeyPair,
    signingAlgorithm: algorithm,
  });
  const entityId = `https://${name}.saml.test/metadata`;
  const ssoUrl = `https://${name}.saml.test/sso`;
  const certificateBody = Buffer.from(certificate.rawData).toString('base64');
  return {
    entityId,
    ssoUrl,
    certificatePem: certificate.toString('pem'),
    privateKeyPem: toPem('PRIVATE KEY', await webcrypto.subtle.exportKey('pkcs8', keys.privateKey)),
    metadataXml: `<?xml version="1.0"?>
<md:EntityDescriptor xmlns:md="urn:oasis:names:tc:SAML:2.0:metadata" entityID="${entityId}">
  <md:IDPSSODescriptor protocolSupportEnumeration="urn:oasis:names:tc:SAML:2.0:protocol">
    <md:KeyDescriptor use="signing"><ds:KeyInfo xmlns:ds="http://www.w3.org/2000/09/xmldsig#"><ds:X509Data><ds:X509Certificate>${certificateBody}</ds:X509Certificate></ds:X509Data></ds:KeyInfo></md:KeyDescriptor>
    <md:SingleSignOnService Binding="urn:oasis:names:tc:SAML:2.0:bindings:HTTP-POST" Location="${ssoUrl}/post"/>
    <md:SingleSignOnService Binding="urn:oasis:names:tc:SAML:2.0:bindings:HTTP-Redirect" Location="${ssoUrl}"/>
  </md:IDPSSODescriptor>
</md:EntityDescriptor>`,
  };
}

/** The AuthnRequest in a redirect to the IdP: its id and where it asks the answer to go. */
export function readAuthnRequest(location: string): { id: string; acsUrl: string; relayState: string } {
  const url = new URL(location);
  const xml = inflateRawSync(Buffer.from(url.searchParams.get('SAMLRequest')!, 'base64')).toString('utf8');
  return {
    id: /\sID="([^"]+)"/.exec(xml)![1]!,
    acsUrl: /\sAssertionConsumerServiceURL="([^"]+)"/.exec(xml)![1]!,
    relayState: url.searchParams.get('RelayState') ?? '',
  };
}

export interface ResponseOptions {
  inResponseTo: string;
  acsUrl: string;
  audience: string;
  email: string;
  firstName?: string;
  lastName?: string;
  assertionId?: string;
  destination?: string;
  recipient?: string;
  /** Milliseconds the assertion stays valid from now (negative: already expired). */
  validForMs?: number;
  /** 'assertion' (default), 'none', or signed with another IdP's key. */
  signature?: 'assertion' | 'none' | { by: TestIdp };
}

/** A base64 SAMLResponse as the IdP posts it to the ACS. */
export function signedResponse(idp: TestIdp, options: ResponseOptions): string {
  const now = new Date();
  const until = new Date(now.getTime() + (options.validForMs ?? 5 * 60_000));
  const issued = options.validForMs !== undefined && options.validForMs < 0 ? new Date(until.getTime() - 5 * 60_000) : now;
  const assertionId = options.assertionId ?? `_${randomUUID()}`;
  const assertion = `<saml:Assertion xmlns:saml="urn:oasis:names:tc:SAML:2.0:assertion" ID="${assertionId}" Version="2.0" IssueInstant="${issued.toISOString()}"><saml:Issuer>${idp.entityId}</saml:Issuer><saml:Subject><saml:NameID Format="urn:oasis:names:tc:SAML:1.1:nameid-format:emailAddress">${options.email}</saml:NameID><saml:SubjectConfirmation Method="urn:oasis:names:tc:SAML:2.0:cm:bearer"><saml:SubjectConfirmationData InResponseTo="${options.inResponseTo}" NotOnOrAfter="${until.toISOString()}" Recipient="${options.recipient ?? options.acsUrl}"/></saml:SubjectConfirmation></saml:Subject><saml:Conditions NotBefore="${new Date(issued.getTime() - 60_000).toISOString()}" NotOnOrAfter="${until.toISOString()}"><saml:AudienceRestriction><saml:Audience>${options.audience}</saml:Audience></saml:AudienceRestriction></saml:Conditions><saml:AuthnStatement AuthnInstant="${issued.toISOString()}" SessionIndex="_${randomUUID()}"><saml:AuthnContext><saml:AuthnContextClassRef>urn:oasis:names:tc:SAML:2.0:ac:classes:PasswordProtectedTransport</saml:AuthnContextClassRef></saml:AuthnContext></saml:AuthnStatement><saml:AttributeStatement><saml:Attribute Name="email"><saml:AttributeValue>${options.email}</saml:AttributeValue></saml:Attribute><saml:Attribute Name="firstName"><saml:AttributeValue>${options.firstName ?? 'Sam'}</saml:AttributeValue></saml:Attribute><saml:Attribute Name="lastName"><saml:AttributeValue>${options.lastName ?? 'Sample'}</saml:AttributeValue></saml:Attribute></saml:AttributeStatement></saml:Assertion>`;
  const response = `<samlp:Response xmlns:samlp="urn:oasis:names:tc:SAML:2.0:protocol" xmlns:saml="urn:oasis:names:tc:SAML:2.0:assertion" ID="_${randomUUID()}" Version="2.0" IssueInstant="${now.toISOString()}" Destination="${options.destination ?? options.acsUrl}" InResponseTo="${options.inResponseTo}"><saml:Issuer>${idp.entityId}</saml:Issuer><samlp:Status><samlp:StatusCode Value="urn:oasis:names:tc:SAML:2.0:status:Success"/></samlp:Status>${assertion}</samlp:Response>`;
  const signature = options.signature ?? 'assertion';
  if (signature === 'none') return Buffer.from(response).toString('base64');
  const signer = signature === 'assertion' ? idp : signature.by;
  const signed = new SignedXml({
    privateKey: signer.privateKeyPem,
    publicCert: signer.certificatePem,
    signatureAlgorithm: 'http://www.w3.org/2001/04/xmldsig-more#rsa-sha256',
    canonicalizationAlgorithm: 'http://www.w3.org/2001/10/xml-exc-c14n#',
  });
  const assertionPath = "//*[local-name(.)='Assertion']";
  signed.addReference({
    xpath: assertionPath,
    digestAlgorithm: 'http://www.w3.org/2001/04/xmlenc#sha256',
    transforms: ['http://www.w3.org/2000/09/xmldsig#enveloped-signature', 'http://www.w3.org/2001/10/xml-exc-c14n#'],
  });
  signed.computeSignature(response, { location: { reference: `${assertionPath}/*[local-name(.)='Issuer']`, action: 'after' } });
  return Buffer.from(signed.getSignedXml()).toString('base64');
}
